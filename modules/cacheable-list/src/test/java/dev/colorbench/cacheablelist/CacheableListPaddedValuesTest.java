package dev.colorbench.cacheablelist;

import dev.colorbench.testkit.PaddedValuesContractTest;

class CacheableListPaddedValuesTest extends PaddedValuesContractTest {
}
