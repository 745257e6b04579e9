package dev.colorbench.cacheableloop;

import java.util.Map;

import dev.colorbench.core.ColorApiContractTest;

class CacheableLoopContractTest extends ColorApiContractTest {

    CacheableLoopContractTest() {
        super(Map.of("get", 148L));
    }
}
