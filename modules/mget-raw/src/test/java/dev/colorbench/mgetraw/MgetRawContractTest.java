package dev.colorbench.mgetraw;

import java.util.Map;

import dev.colorbench.testkit.ColorApiContractTest;

class MgetRawContractTest extends ColorApiContractTest {

    MgetRawContractTest() {
        super(Map.of("mget", 1L));
    }
}
