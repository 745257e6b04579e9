package dev.colorbench.cacheableloop;

import dev.colorbench.testkit.RedisOutageContractTest;

class CacheableLoopRedisOutageTest extends RedisOutageContractTest {
}
