package com.example.colors;

import dev.colorbench.testkit.copy.CopyContractTest;

class RedisHashRepositoryCopyTest extends CopyContractTest {

    RedisHashRepositoryCopyTest() {
        super(new RepositoryHashes());
    }
}
