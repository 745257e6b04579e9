package dev.colorbench.cacheablelist;

import java.util.Map;

import dev.colorbench.testkit.RedisClusterAnswerTest;

class CacheableListClusterTest extends RedisClusterAnswerTest {

    CacheableListClusterTest() {
        super(Map.of("get", 1L), 1);
    }
}
