package dev.colorbench.nearcache;

import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.testkit.StalenessContractTest;

/** The staleness contract; the mechanism's own tests are the library's (near-cache-library/src/test). */
class NearCacheStalenessTest extends StalenessContractTest {

    NearCacheStalenessTest() {
        super(ColorKeys::jsonKey);
    }
}
