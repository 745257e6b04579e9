package dev.colorbench.cacheableasync;

import java.util.Map;

import dev.colorbench.testkit.RedisClusterAnswerTest;

class CacheableAsyncClusterTest extends RedisClusterAnswerTest {

    CacheableAsyncClusterTest() {
        super(Map.of("get", 148L), 3);
    }
}
