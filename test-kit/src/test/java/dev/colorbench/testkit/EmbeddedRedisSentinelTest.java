package dev.colorbench.testkit;

import java.time.Duration;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The embedded Sentinel names its master, a client that asks it reaches that master, and a failover on request makes
 * the replica the master, with what the former master held. Every server here is the test's own.
 */
class EmbeddedRedisSentinelTest {

    @Test
    void aFailoverOnRequestMakesTheReplicaTheMasterTheSentinelNames() {
        try (EmbeddedRedisSentinel sentinel = EmbeddedRedisSentinel.start()) {
            RedisURI viaSentinel = RedisURI.Builder.sentinel("127.0.0.1", Integer.parseInt(sentinel.node().split(":")[1]), EmbeddedRedisSentinel.MASTER)
                    .build();
            int before = sentinel.masterPort();
            RedisClient client = RedisClient.create(viaSentinel);
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                connection.sync().set("colorbench-test:sentinel", "written before the failover");
                assertThat(connection.sync().info("server")).contains("tcp_port:" + before);
            }

            Duration took = sentinel.failover();
            System.out.printf("Embedded Sentinel: a failover on request took %d ms%n", took.toMillis());

            assertThat(sentinel.masterPort()).as("the master the Sentinel names").isNotEqualTo(before);
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                assertThat(connection.sync().info("server")).as("a client that asks the Sentinel").contains("tcp_port:" + sentinel.masterPort());
                assertThat(connection.sync().get("colorbench-test:sentinel")).isEqualTo("written before the failover");
                connection.sync().set("colorbench-test:sentinel", "written on the new master");
            }
            finally {
                client.shutdown();
            }
        }
    }
}
