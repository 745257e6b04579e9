package dev.colorbench.cacheablemultiget;

import dev.colorbench.testkit.RedisTlsContractTest;

class CacheableMultigetRedisTlsTest extends RedisTlsContractTest {
}
