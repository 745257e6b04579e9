package dev.colorbench.mgetfloor;

import java.util.Map;

import dev.colorbench.testkit.RedisClusterContractTest;

/** The plain layout on a cluster: one MGET per slot, as template-mget (see its README). */
class MgetFloorClusterTest extends RedisClusterContractTest {

    MgetFloorClusterTest() {
        super(Map.of("mget", 148L), 3, Sending.ALL_AT_ONCE);
    }
}
