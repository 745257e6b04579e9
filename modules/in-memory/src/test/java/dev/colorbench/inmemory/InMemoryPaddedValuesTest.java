package dev.colorbench.inmemory;

import dev.colorbench.testkit.PaddedValuesContractTest;

class InMemoryPaddedValuesTest extends PaddedValuesContractTest {
}
