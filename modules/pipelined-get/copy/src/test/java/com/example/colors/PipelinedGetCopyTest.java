package com.example.colors;

import java.util.Map;

import dev.colorbench.testkit.copy.CopyContractTest;
import dev.colorbench.testkit.copy.StoredColor;

class PipelinedGetCopyTest extends CopyContractTest {

    PipelinedGetCopyTest() {
        super(StoredColor.stringKey(name -> "colors::v3::" + name), Map.of("get", 148L));
    }
}
