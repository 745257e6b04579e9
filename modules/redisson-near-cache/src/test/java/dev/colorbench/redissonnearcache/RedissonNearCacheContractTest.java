package dev.colorbench.redissonnearcache;

import java.util.Map;

import dev.colorbench.testkit.ColorApiContractTest;

/** The contract, at the cost of a warm request: nothing. */
class RedissonNearCacheContractTest extends ColorApiContractTest {

    RedissonNearCacheContractTest() {
        super(Map.of());
    }
}
