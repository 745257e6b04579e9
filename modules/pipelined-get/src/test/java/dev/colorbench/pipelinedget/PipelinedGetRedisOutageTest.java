package dev.colorbench.pipelinedget;

import dev.colorbench.testkit.RedisOutageContractTest;

class PipelinedGetRedisOutageTest extends RedisOutageContractTest {
}
