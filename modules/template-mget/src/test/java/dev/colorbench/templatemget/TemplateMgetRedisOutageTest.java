package dev.colorbench.templatemget;

import dev.colorbench.core.RedisOutageContractTest;

class TemplateMgetRedisOutageTest extends RedisOutageContractTest {
}
