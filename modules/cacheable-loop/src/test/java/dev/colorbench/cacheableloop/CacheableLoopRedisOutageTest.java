package dev.colorbench.cacheableloop;

import dev.colorbench.core.RedisOutageContractTest;

class CacheableLoopRedisOutageTest extends RedisOutageContractTest {
}
