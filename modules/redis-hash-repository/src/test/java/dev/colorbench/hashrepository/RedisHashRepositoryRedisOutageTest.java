package dev.colorbench.hashrepository;

import dev.colorbench.core.RedisOutageContractTest;

class RedisHashRepositoryRedisOutageTest extends RedisOutageContractTest {
}
