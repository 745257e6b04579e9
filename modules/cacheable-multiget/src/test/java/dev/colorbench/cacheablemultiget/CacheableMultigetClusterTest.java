package dev.colorbench.cacheablemultiget;

import java.util.Map;

import dev.colorbench.testkit.RedisClusterAnswerTest;

/**
 * Lettuce's one MGET per slot: the 148 {@code colors::v1::<name>} keys are in 147 slots
 * ({@code mediumspringgreen} and {@code seashell} share one), so 147 MGETs.
 */
class CacheableMultigetClusterTest extends RedisClusterAnswerTest {

    CacheableMultigetClusterTest() {
        super(Map.of("mget", 147L), 3);
    }
}
