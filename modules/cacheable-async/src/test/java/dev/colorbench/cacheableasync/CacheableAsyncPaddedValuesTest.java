package dev.colorbench.cacheableasync;

import dev.colorbench.testkit.PaddedValuesContractTest;

class CacheableAsyncPaddedValuesTest extends PaddedValuesContractTest {
}
