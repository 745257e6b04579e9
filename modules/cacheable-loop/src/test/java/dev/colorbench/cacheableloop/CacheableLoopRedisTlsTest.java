package dev.colorbench.cacheableloop;

import dev.colorbench.testkit.RedisTlsContractTest;

class CacheableLoopRedisTlsTest extends RedisTlsContractTest {
}
