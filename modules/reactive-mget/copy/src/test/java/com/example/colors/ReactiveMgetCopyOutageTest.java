package com.example.colors;

import dev.colorbench.testkit.copy.CopyRedisOutageTest;

class ReactiveMgetCopyOutageTest extends CopyRedisOutageTest {
}
