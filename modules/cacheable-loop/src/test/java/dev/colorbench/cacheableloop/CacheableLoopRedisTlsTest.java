package dev.colorbench.cacheableloop;

import dev.colorbench.core.RedisTlsContractTest;

class CacheableLoopRedisTlsTest extends RedisTlsContractTest {
}
