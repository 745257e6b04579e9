package dev.colorbench.mgetfloor;

import dev.colorbench.testkit.PaddedValuesContractTest;

class MgetFloorPaddedValuesTest extends PaddedValuesContractTest {
}
