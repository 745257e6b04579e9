package dev.colorbench.reactivemget;

import dev.colorbench.testkit.PaddedValuesContractTest;

class ReactiveMgetPaddedValuesTest extends PaddedValuesContractTest {
}
