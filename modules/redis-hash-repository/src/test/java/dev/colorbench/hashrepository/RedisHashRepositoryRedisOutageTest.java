package dev.colorbench.hashrepository;

import dev.colorbench.testkit.RedisOutageContractTest;

class RedisHashRepositoryRedisOutageTest extends RedisOutageContractTest {
}
