package dev.colorbench.cacheableasync;

import dev.colorbench.testkit.RedisOutageContractTest;

class CacheableAsyncRedisOutageTest extends RedisOutageContractTest {
}
