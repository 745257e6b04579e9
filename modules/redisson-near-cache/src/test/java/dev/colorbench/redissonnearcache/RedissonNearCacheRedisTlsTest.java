package dev.colorbench.redissonnearcache;

import dev.colorbench.testkit.RedisTlsContractTest;

/** Redisson too is given the URL's {@code rediss://} and the SSL bundle's trust managers. */
class RedissonNearCacheRedisTlsTest extends RedisTlsContractTest {
}
