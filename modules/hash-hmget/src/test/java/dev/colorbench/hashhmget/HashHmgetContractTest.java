package dev.colorbench.hashhmget;

import java.util.Map;

import dev.colorbench.testkit.ColorApiContractTest;

class HashHmgetContractTest extends ColorApiContractTest {

    HashHmgetContractTest() {
        super(Map.of("hmget", 1L));
    }
}
