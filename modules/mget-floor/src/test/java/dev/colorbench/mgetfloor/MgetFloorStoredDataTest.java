package dev.colorbench.mgetfloor;

import dev.colorbench.testkit.RawJsonStoredDataContractTest;

class MgetFloorStoredDataTest extends RawJsonStoredDataContractTest {
}
