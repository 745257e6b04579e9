package dev.colorbench.hashhmget;

import java.util.Map;

import dev.colorbench.testkit.RedisClusterContractTest;

class HashHmgetClusterTest extends RedisClusterContractTest {

    HashHmgetClusterTest() {
        super(Map.of("hmget", 1L), 1);
    }
}
