package dev.colorbench.reactivemget;

import java.util.Map;

import dev.colorbench.testkit.RedisClusterContractTest;

class ReactiveMgetClusterTest extends RedisClusterContractTest {

    ReactiveMgetClusterTest() {
        super(Map.of("mget", 148L), 3, Sending.ALL_AT_ONCE);
    }
}
