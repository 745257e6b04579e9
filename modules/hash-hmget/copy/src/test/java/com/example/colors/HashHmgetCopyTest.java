package com.example.colors;

import java.util.Map;

import dev.colorbench.testkit.copy.CopyContractTest;
import dev.colorbench.testkit.copy.StoredColor;

class HashHmgetCopyTest extends CopyContractTest {

    HashHmgetCopyTest() {
        super(StoredColor.hashField("colors::v5"), Map.of("hmget", 1L));
    }
}
