package dev.colorbench.hashrepository;

import dev.colorbench.testkit.RedisTlsContractTest;

class RedisHashRepositoryRedisTlsTest extends RedisTlsContractTest {
}
