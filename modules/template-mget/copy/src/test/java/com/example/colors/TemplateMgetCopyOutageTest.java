package com.example.colors;

import dev.colorbench.testkit.copy.CopyRedisOutageTest;

class TemplateMgetCopyOutageTest extends CopyRedisOutageTest {
}
