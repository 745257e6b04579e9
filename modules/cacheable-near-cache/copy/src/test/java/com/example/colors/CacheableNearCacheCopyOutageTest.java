package com.example.colors;

import dev.colorbench.testkit.copy.CopyRedisOutageTest;

class CacheableNearCacheCopyOutageTest extends CopyRedisOutageTest {

    @Override
    protected boolean answersFromALocalCopy() {
        return true;
    }
}
