package dev.colorbench.cacheablemultiget;

import dev.colorbench.testkit.PaddedValuesContractTest;

class CacheableMultigetPaddedValuesTest extends PaddedValuesContractTest {
}
