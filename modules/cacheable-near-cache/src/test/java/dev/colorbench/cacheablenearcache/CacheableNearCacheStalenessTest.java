package dev.colorbench.cacheablenearcache;

import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.testkit.StalenessContractTest;

/** The staleness contract on cacheable-loop's keys; the mechanism's own tests are the library's (near-cache-library/src/test). */
class CacheableNearCacheStalenessTest extends StalenessContractTest {

    CacheableNearCacheStalenessTest() {
        super(ColorKeys::cacheKey);
    }
}
