package dev.colorbench.hashrepository;

import java.util.Map;

import dev.colorbench.testkit.ColorApiContractTest;

class RedisHashRepositoryContractTest extends ColorApiContractTest {

    RedisHashRepositoryContractTest() {
        super(Map.of("smembers", 1L, "hgetall", 148L));
    }
}
