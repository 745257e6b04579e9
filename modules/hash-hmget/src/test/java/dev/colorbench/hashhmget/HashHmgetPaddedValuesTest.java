package dev.colorbench.hashhmget;

import dev.colorbench.testkit.PaddedValuesContractTest;

class HashHmgetPaddedValuesTest extends PaddedValuesContractTest {
}
