package dev.colorbench.mgetraw;

import dev.colorbench.testkit.PaddedValuesContractTest;

class MgetRawPaddedValuesTest extends PaddedValuesContractTest {
}
