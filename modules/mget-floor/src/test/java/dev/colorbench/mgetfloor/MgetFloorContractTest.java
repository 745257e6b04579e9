package dev.colorbench.mgetfloor;

import java.util.Map;

import dev.colorbench.testkit.ColorApiContractTest;

class MgetFloorContractTest extends ColorApiContractTest {

    MgetFloorContractTest() {
        super(Map.of("mget", 1L));
    }
}
