package dev.colorbench.hashrepository;

import dev.colorbench.core.RedisTlsContractTest;

class RedisHashRepositoryRedisTlsTest extends RedisTlsContractTest {
}
