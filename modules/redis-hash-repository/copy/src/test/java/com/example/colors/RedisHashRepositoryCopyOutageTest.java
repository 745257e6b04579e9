package com.example.colors;

import dev.colorbench.testkit.copy.CopyRedisOutageTest;

class RedisHashRepositoryCopyOutageTest extends CopyRedisOutageTest {
}
