package com.example.colors;

import dev.colorbench.testkit.copy.CopyContractTest;

class CacheableListCopyTest extends CopyContractTest {

    CacheableListCopyTest() {
        super(new PaletteElement());
    }
}
