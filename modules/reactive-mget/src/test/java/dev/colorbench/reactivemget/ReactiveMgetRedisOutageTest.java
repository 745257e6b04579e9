package dev.colorbench.reactivemget;

import dev.colorbench.core.RedisOutageContractTest;

class ReactiveMgetRedisOutageTest extends RedisOutageContractTest {
}
