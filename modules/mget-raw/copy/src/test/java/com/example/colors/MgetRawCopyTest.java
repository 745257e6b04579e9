package com.example.colors;

import java.util.Map;

import dev.colorbench.testkit.copy.CopyContractTest;
import dev.colorbench.testkit.copy.StoredColor;

class MgetRawCopyTest extends CopyContractTest {

    MgetRawCopyTest() {
        super(StoredColor.stringKey(name -> "colors::v3::" + name), Map.of("mget", 1L));
    }
}
