package com.example.colors;

import dev.colorbench.testkit.copy.CopyRedisOutageTest;

class NearCacheCopyOutageTest extends CopyRedisOutageTest {

    @Override
    protected boolean answersFromALocalCopy() {
        return true;
    }
}
