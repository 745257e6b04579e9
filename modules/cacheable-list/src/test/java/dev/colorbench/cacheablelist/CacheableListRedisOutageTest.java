package dev.colorbench.cacheablelist;

import dev.colorbench.testkit.RedisOutageContractTest;

class CacheableListRedisOutageTest extends RedisOutageContractTest {
}
