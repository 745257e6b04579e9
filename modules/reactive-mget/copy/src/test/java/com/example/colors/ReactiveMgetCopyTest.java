package com.example.colors;

import java.util.Map;

import dev.colorbench.testkit.copy.CopyContractTest;
import dev.colorbench.testkit.copy.StoredColor;

class ReactiveMgetCopyTest extends CopyContractTest {

    ReactiveMgetCopyTest() {
        super(StoredColor.stringKey(name -> "colors::v3::" + name), Map.of("mget", 1L));
    }
}
