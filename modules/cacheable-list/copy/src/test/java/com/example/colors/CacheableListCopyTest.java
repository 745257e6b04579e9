package com.example.colors;

import java.util.Map;

import dev.colorbench.testkit.copy.CopyContractTest;

class CacheableListCopyTest extends CopyContractTest {

    CacheableListCopyTest() {
        super(new PaletteElement(), Map.of("get", 1L));
    }
}
