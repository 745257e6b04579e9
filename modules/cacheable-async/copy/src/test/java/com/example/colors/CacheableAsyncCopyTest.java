package com.example.colors;

import dev.colorbench.testkit.copy.CopyContractTest;
import dev.colorbench.testkit.copy.StoredColor;

class CacheableAsyncCopyTest extends CopyContractTest {

    CacheableAsyncCopyTest() {
        super(StoredColor.stringKey(name -> "colors::v1::" + name));
    }
}
