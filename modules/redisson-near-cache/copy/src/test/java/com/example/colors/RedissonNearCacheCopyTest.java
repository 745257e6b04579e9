package com.example.colors;

import java.util.Map;

import dev.colorbench.testkit.copy.CopyContractTest;
import dev.colorbench.testkit.copy.StoredColor;

class RedissonNearCacheCopyTest extends CopyContractTest {

    RedissonNearCacheCopyTest() {
        super(StoredColor.stringKey(name -> "colors::v3::" + name), Map.of());
    }
}
