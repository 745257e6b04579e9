package com.example.colors;

import java.util.Map;

import dev.colorbench.testkit.copy.CopyContractTest;
import dev.colorbench.testkit.copy.StoredColor;

class CacheableAsyncCopyTest extends CopyContractTest {

    CacheableAsyncCopyTest() {
        super(StoredColor.stringKey(name -> "colors::v1::" + name), Map.of("get", 148L));
    }
}
