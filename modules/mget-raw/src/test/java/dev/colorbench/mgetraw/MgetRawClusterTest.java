package dev.colorbench.mgetraw;

import java.util.Map;

import dev.colorbench.testkit.RedisClusterContractTest;

import static org.assertj.core.api.Assertions.assertThat;

/** The plain layout on a cluster: one MGET per slot, as template-mget (see its README). */
class MgetRawClusterTest extends RedisClusterContractTest {

    MgetRawClusterTest() {
        super(Map.of("mget", 148L), 3);
    }

    @Override
    protected void assertRoundTrips(long roundTrips, long commands) {
        assertThat(roundTrips).as("round trips of one GET /colors").isBetween(3L, commands);
    }
}
