package com.example.colors;

import dev.colorbench.testkit.copy.CopyContractTest;

class JdbcBatchCopyTest extends CopyContractTest {

    JdbcBatchCopyTest() {
        super(null);
    }
}
