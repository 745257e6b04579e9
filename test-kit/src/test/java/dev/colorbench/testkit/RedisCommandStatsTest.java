package dev.colorbench.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RedisCommandStatsTest {

    @Test
    void parsesCallsPerCommand() {
        String info = "# Commandstats\r\ncmdstat_get:calls=148,usec=300,usec_per_call=2.03\r\n"
                + "cmdstat_client|setinfo:calls=2,usec=1\r\ncmdstat_mget:calls=1,usec=20\r\n";

        assertThat(RedisCommandStats.parse(info)).containsExactly(Map.entry("client|setinfo", 2L), Map.entry("get", 148L),
                Map.entry("mget", 1L));
    }

    @Test
    void countsWhatAnotherClientDidOnARealServerWithoutItsOwnCalls() {
        try (RedisCommandStats stats = RedisCommandStats.connect(TestRedis.url());
                Connection other = new Connection(TestRedis.url())) {
            Map<String, Long> issued = stats.during(() -> {
                other.commands.sync().get("colors::test::a");
                other.commands.sync().get("colors::test::b");
                other.commands.sync().mget("colors::test::a", "colors::test::b");
                stats.info("stats");
            });

            assertThat(issued).containsExactly(Map.entry("get", 2L), Map.entry("mget", 1L));
        }
    }

    @Test
    void seesAnotherClientsInfoAndCountsItsPingsApartWithTheirRoundTrips() {
        try (RedisCommandStats stats = RedisCommandStats.connect(TestRedis.url());
                Connection other = new Connection(TestRedis.url())) {
            RedisCommandStats.Usage usage = stats.usage(() -> {
                other.commands.sync().ping();
                other.commands.sync().ping();
                other.commands.sync().info("server");
                other.commands.sync().get("colors::test::ping");
                stats.info("stats");
            });

            assertThat(usage.commands()).containsExactly(Map.entry("get", 1L), Map.entry("info", 1L));
            assertThat(usage.roundTrips()).isEqualTo(2);
            assertThat(usage.pings()).isEqualTo(2);
        }
    }

    @Test
    void countsARoundTripPerCommandOfAClientThatWaitsAndFewerForAPipeline() {
        try (RedisCommandStats stats = RedisCommandStats.connect(TestRedis.url());
                Connection other = new Connection(TestRedis.url())) {
            RedisCommandStats.Usage oneByOne = stats.usage(() -> {
                for (int i = 0; i < 20; i++) {
                    other.commands.sync().get("colors::test::" + i);
                }
            });
            RedisCommandStats.Usage pipelined = stats.usage(() -> {
                other.commands.setAutoFlushCommands(false);
                List<RedisFuture<String>> replies = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    replies.add(other.commands.async().get("colors::test::" + i));
                }
                other.commands.flushCommands();
                LettuceFutures.awaitAll(Duration.ofSeconds(5), replies.toArray(RedisFuture[]::new));
                other.commands.setAutoFlushCommands(true);
            });

            assertThat(oneByOne.commands()).containsExactly(Map.entry("get", 20L));
            assertThat(oneByOne.roundTrips()).isEqualTo(20);
            assertThat(pipelined.commands()).containsExactly(Map.entry("get", 20L));
            assertThat(pipelined.roundTrips()).isBetween(1L, 3L);
        }
    }

    /** A replica acknowledges its master once a second: over 1.5 s, the master's count is still only the other client's. */
    @Test
    void leavesOutAReplicasAcknowledgements() {
        try (EmbeddedRedis master = EmbeddedRedis.start();
                DelayProxy path = DelayProxy.start("127.0.0.1", master.port(), Duration.ZERO);
                EmbeddedRedis replica = EmbeddedRedis.startReplicaOf(master, path);
                RedisCommandStats stats = RedisCommandStats.connect(master.url());
                Connection other = new Connection(master.url())) {
            RedisCommandStats.Usage usage = stats.usage(() -> {
                other.commands.sync().get("colors::test::replicated");
                sleep(1_500);
            });

            assertThat(stats.everything()).containsKey("replconf");
            assertThat(usage.commands()).containsExactly(Map.entry("get", 1L));
            assertThat(usage.roundTrips()).isEqualTo(1);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    private static final class Connection implements AutoCloseable {

        private final RedisClient client;

        private final StatefulRedisConnection<String, String> commands;

        Connection(String url) {
            this.client = RedisClient.create(url);
            this.commands = client.connect();
        }

        @Override
        public void close() {
            commands.close();
            client.shutdown();
        }
    }
}
