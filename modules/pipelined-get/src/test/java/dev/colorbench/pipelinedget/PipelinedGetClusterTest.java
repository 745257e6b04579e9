package dev.colorbench.pipelinedget;

import java.util.Map;

import dev.colorbench.testkit.RedisClusterContractTest;

import static org.assertj.core.api.Assertions.assertThat;

class PipelinedGetClusterTest extends RedisClusterContractTest {

    PipelinedGetClusterTest() {
        super(Map.of("get", 148L), 3);
    }

    @Override
    protected void assertRoundTrips(long roundTrips, long commands) {
        assertThat(roundTrips).as("round trips of one GET /colors").isBetween(3L, commands);
    }
}
