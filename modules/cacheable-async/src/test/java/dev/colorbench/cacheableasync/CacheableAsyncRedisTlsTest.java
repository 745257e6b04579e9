package dev.colorbench.cacheableasync;

import dev.colorbench.testkit.RedisTlsContractTest;

class CacheableAsyncRedisTlsTest extends RedisTlsContractTest {
}
