package dev.colorbench.core;

import java.util.Map;

import io.lettuce.core.RedisClient;
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
    void countsWhatAnotherClientDidOnARealServer() {
        try (RedisCommandStats stats = RedisCommandStats.connect(TestRedis.url())) {
            RedisClient client = RedisClient.create(TestRedis.url());
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                Map<String, Long> issued = stats.during(() -> {
                    connection.sync().get("colors::test::a");
                    connection.sync().get("colors::test::b");
                    connection.sync().mget("colors::test::a", "colors::test::b");
                });

                assertThat(issued).containsExactly(Map.entry("get", 2L), Map.entry("mget", 1L));
            }
            finally {
                client.shutdown();
            }
        }
    }
}
