package com.example.colors;

import java.util.Map;

import dev.colorbench.testkit.copy.CopyContractTest;

class RedisHashRepositoryCopyTest extends CopyContractTest {

    RedisHashRepositoryCopyTest() {
        super(new RepositoryHashes(), Map.of("smembers", 1L, "hgetall", 148L));
    }
}
