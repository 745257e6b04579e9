package dev.colorbench.cacheablelist;

import dev.colorbench.testkit.RedisTlsContractTest;

class CacheableListRedisTlsTest extends RedisTlsContractTest {
}
