package dev.colorbench.hashhmget;

import dev.colorbench.testkit.RedisOutageContractTest;

class HashHmgetRedisOutageTest extends RedisOutageContractTest {
}
