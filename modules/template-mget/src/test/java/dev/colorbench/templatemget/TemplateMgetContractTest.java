package dev.colorbench.templatemget;

import java.util.Map;

import dev.colorbench.testkit.ColorApiContractTest;

class TemplateMgetContractTest extends ColorApiContractTest {

    TemplateMgetContractTest() {
        super(Map.of("mget", 1L));
    }
}
