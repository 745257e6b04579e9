package dev.colorbench.redissonnearcache;

import dev.colorbench.testkit.PaddedValuesContractTest;

class RedissonNearCachePaddedValuesTest extends PaddedValuesContractTest {
}
