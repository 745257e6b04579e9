package dev.colorbench.inmemory;

import java.util.Map;

import dev.colorbench.core.ColorApiContractTest;

class InMemoryContractTest extends ColorApiContractTest {

    InMemoryContractTest() {
        super(Map.of());
    }
}
