package dev.colorbench.mgetfloor;

import java.util.Map;

import dev.colorbench.testkit.RedisClusterAnswerTest;

import org.springframework.test.context.TestPropertySource;

/** The hash-tagged layout on a cluster: one MGET on one master. */
@TestPropertySource(properties = "colorbench.redis.hash-tag=true")
class MgetFloorHashTagClusterTest extends RedisClusterAnswerTest {

    MgetFloorHashTagClusterTest() {
        super(Map.of("mget", 1L), 1);
    }
}
