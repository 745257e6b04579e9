package dev.colorbench.templatemget;

import java.util.Map;

import dev.colorbench.testkit.RedisClusterContractTest;

import org.springframework.test.context.TestPropertySource;

/** The hash-tagged layout on a cluster: every key in the slot of {@code v3}, one MGET on one master. */
@TestPropertySource(properties = "colorbench.redis.hash-tag=true")
class TemplateMgetHashTagClusterTest extends RedisClusterContractTest {

    TemplateMgetHashTagClusterTest() {
        super(Map.of("mget", 1L), 1);
    }
}
