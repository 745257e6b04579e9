package com.example.colors;

import dev.colorbench.testkit.copy.CopyRedisOutageTest;

class MgetRawCopyOutageTest extends CopyRedisOutageTest {
}
