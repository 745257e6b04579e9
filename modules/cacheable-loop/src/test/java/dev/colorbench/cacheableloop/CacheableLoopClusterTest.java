package dev.colorbench.cacheableloop;

import java.util.Map;

import dev.colorbench.testkit.RedisClusterContractTest;

class CacheableLoopClusterTest extends RedisClusterContractTest {

    CacheableLoopClusterTest() {
        super(Map.of("get", 148L), 3);
    }
}
