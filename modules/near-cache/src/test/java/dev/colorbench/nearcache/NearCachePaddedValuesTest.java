package dev.colorbench.nearcache;

import dev.colorbench.testkit.PaddedValuesContractTest;

class NearCachePaddedValuesTest extends PaddedValuesContractTest {
}
