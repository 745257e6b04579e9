package com.example.colors;

import dev.colorbench.testkit.copy.CopyRedisOutageTest;

class HashHmgetCopyOutageTest extends CopyRedisOutageTest {
}
