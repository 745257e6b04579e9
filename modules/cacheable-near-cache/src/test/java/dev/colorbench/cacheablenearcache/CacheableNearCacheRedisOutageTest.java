package dev.colorbench.cacheablenearcache;

import dev.colorbench.testkit.RedisOutageContractTest;

class CacheableNearCacheRedisOutageTest extends RedisOutageContractTest {

    /** Warm requests never reach Redis: the copy answers until the tracking connection drops, and through a stall. */
    @Override
    protected boolean answersFromALocalCopy() {
        return true;
    }
}
