package com.example.colors;

import dev.colorbench.testkit.copy.CopyContractTest;

class JdbcLoopCopyTest extends CopyContractTest {

    JdbcLoopCopyTest() {
        super(null);
    }
}
