package dev.colorbench.templatemget;

import java.util.Map;

import dev.colorbench.testkit.RedisClusterContractTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plain layout on a cluster: the 148 keys are in 148 slots, and Spring Data Redis 4 hands the MGET to
 * Lettuce's cluster API, which sends one MGET per slot to the masters at once (measured).
 */
class TemplateMgetClusterTest extends RedisClusterContractTest {

    TemplateMgetClusterTest() {
        super(Map.of("mget", 148L), 3);
    }

    /** The per-slot MGETs are in flight together, several to a socket read per master. */
    @Override
    protected void assertRoundTrips(long roundTrips, long commands) {
        assertThat(roundTrips).as("round trips of one GET /colors").isBetween(3L, commands);
    }
}
