package dev.colorbench.hashrepository;

import java.util.Map;

import dev.colorbench.testkit.RedisClusterContractTest;

class RedisHashRepositoryClusterTest extends RedisClusterContractTest {

    RedisHashRepositoryClusterTest() {
        super(Map.of("smembers", 1L, "hgetall", 148L), 3);
    }
}
