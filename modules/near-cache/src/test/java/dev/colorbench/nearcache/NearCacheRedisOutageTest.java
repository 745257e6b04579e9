package dev.colorbench.nearcache;

import dev.colorbench.testkit.RedisOutageContractTest;

class NearCacheRedisOutageTest extends RedisOutageContractTest {

    /** Warm requests never reach Redis: the copy answers until the tracking connection drops, and through a stall. */
    @Override
    protected boolean answersFromALocalCopy() {
        return true;
    }
}
