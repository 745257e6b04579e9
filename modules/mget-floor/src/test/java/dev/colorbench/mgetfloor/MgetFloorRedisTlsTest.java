package dev.colorbench.mgetfloor;

import dev.colorbench.testkit.RedisTlsContractTest;

class MgetFloorRedisTlsTest extends RedisTlsContractTest {
}
