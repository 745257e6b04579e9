package dev.colorbench.reactivemget;

import java.util.Map;

import dev.colorbench.testkit.RedisClusterContractTest;

import static org.assertj.core.api.Assertions.assertThat;

class ReactiveMgetClusterTest extends RedisClusterContractTest {

    ReactiveMgetClusterTest() {
        super(Map.of("mget", 148L), 3);
    }

    @Override
    protected void assertRoundTrips(long roundTrips, long commands) {
        assertThat(roundTrips).as("round trips of one GET /colors").isBetween(3L, commands);
    }
}
