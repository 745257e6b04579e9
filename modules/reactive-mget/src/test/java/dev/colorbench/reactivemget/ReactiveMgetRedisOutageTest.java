package dev.colorbench.reactivemget;

import dev.colorbench.testkit.RedisOutageContractTest;

class ReactiveMgetRedisOutageTest extends RedisOutageContractTest {
}
