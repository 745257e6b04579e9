package com.example.colors;

import dev.colorbench.testkit.copy.CopyContractTest;
import dev.colorbench.testkit.copy.StoredColor;

class MgetRawCopyTest extends CopyContractTest {

    MgetRawCopyTest() {
        super(StoredColor.stringKey(name -> "colors::v3::" + name));
    }
}
