package dev.colorbench.templatemget;

import dev.colorbench.testkit.RedisOutageContractTest;

class TemplateMgetRedisOutageTest extends RedisOutageContractTest {
}
