package dev.colorbench.templatemget;

import java.util.Map;

import dev.colorbench.testkit.RedisClusterContractTest;

/**
 * The plain layout on a cluster: the 148 keys are in 148 slots, and Spring Data Redis 4 hands the MGET to
 * Lettuce's cluster API, which sends one MGET per slot to the masters at once (measured).
 */
class TemplateMgetClusterTest extends RedisClusterContractTest {

    TemplateMgetClusterTest() {
        super(Map.of("mget", 148L), 3, Sending.ALL_AT_ONCE);
    }
}
