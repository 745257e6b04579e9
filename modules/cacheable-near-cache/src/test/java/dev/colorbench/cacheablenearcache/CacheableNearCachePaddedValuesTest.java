package dev.colorbench.cacheablenearcache;

import dev.colorbench.testkit.PaddedValuesContractTest;

class CacheableNearCachePaddedValuesTest extends PaddedValuesContractTest {
}
