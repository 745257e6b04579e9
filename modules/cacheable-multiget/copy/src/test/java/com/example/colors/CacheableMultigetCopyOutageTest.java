package com.example.colors;

import dev.colorbench.testkit.copy.CopyRedisOutageTest;

class CacheableMultigetCopyOutageTest extends CopyRedisOutageTest {
}
