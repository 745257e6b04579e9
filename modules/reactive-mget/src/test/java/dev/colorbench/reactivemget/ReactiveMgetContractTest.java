package dev.colorbench.reactivemget;

import java.util.Map;

import dev.colorbench.testkit.ColorApiContractTest;

class ReactiveMgetContractTest extends ColorApiContractTest {

    ReactiveMgetContractTest() {
        super(Map.of("mget", 1L));
    }
}
