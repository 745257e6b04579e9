package dev.colorbench.pipelinedget;

import java.util.Map;

import dev.colorbench.testkit.RedisClusterContractTest;

class PipelinedGetClusterTest extends RedisClusterContractTest {

    PipelinedGetClusterTest() {
        super(Map.of("get", 148L), 3, Sending.ALL_AT_ONCE);
    }
}
