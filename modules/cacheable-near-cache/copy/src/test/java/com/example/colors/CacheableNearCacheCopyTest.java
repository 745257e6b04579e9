package com.example.colors;

import java.util.Map;

import dev.colorbench.testkit.copy.CopyContractTest;
import dev.colorbench.testkit.copy.StoredColor;

class CacheableNearCacheCopyTest extends CopyContractTest {

    CacheableNearCacheCopyTest() {
        super(StoredColor.stringKey(name -> "colors::v1::" + name), Map.of());
    }
}
