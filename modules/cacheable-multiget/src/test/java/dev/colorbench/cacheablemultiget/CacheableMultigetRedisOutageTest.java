package dev.colorbench.cacheablemultiget;

import dev.colorbench.testkit.RedisOutageContractTest;

class CacheableMultigetRedisOutageTest extends RedisOutageContractTest {
}
