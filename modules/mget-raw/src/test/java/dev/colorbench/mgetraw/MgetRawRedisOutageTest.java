package dev.colorbench.mgetraw;

import dev.colorbench.testkit.RedisOutageContractTest;

class MgetRawRedisOutageTest extends RedisOutageContractTest {
}
