package dev.colorbench.cacheableloop;

import dev.colorbench.testkit.PaddedValuesContractTest;

class CacheableLoopPaddedValuesTest extends PaddedValuesContractTest {
}
