package dev.colorbench.redissonnearcache;

import java.time.Duration;
import java.util.Map;

import dev.colorbench.testkit.ColorApiContractTest;

/** The contract, at the cost of a warm request: nothing. */
class RedissonNearCacheContractTest extends ColorApiContractTest {

    /** How long the invalidations of an earlier test's writes may take to reach Redisson under a loaded build. */
    private static final Duration SETTLED = Duration.ofSeconds(5);

    RedissonNearCacheContractTest() {
        super(Map.of());
    }

    /**
     * Warm means a full read that cost Redis nothing: Redisson's invalidations come on its subscription connection,
     * so those of an earlier test's writes (seeding again) can land after one read and empty what it cached.
     */
    @Override
    protected void warmUp() {
        warmUpUntilAReadCostsNothing(SETTLED);
    }
}
