package dev.colorbench.pipelinedget;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.colorbench.testkit.ColorApiContractTest;
import dev.colorbench.testkit.RedisCommandStats;
import dev.colorbench.testkit.TestRedis;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

class PipelinedGetContractTest extends ColorApiContractTest {

    /** spring.data.redis.lettuce.pool.max-active in application.yml. */
    private static final int POOL_SIZE = 16;

    PipelinedGetContractTest() {
        super(Map.of("get", 148L));
    }

    /** The 148 GETs leave in one flush on a pooled connection: Redis reads them in one go (measured: 1). */
    @Override
    protected void assertRoundTrips(long roundTrips, long commands) {
        assertThat(roundTrips).as("round trips of one GET /colors (%d commands)", commands).isEqualTo(1);
    }

    @Autowired
    private PipelinedGetColorStore store;

    /**
     * A palette larger than one pipeline holds (the benchmark's keys scenario goes to 10,000 colors) is read
     * in pipelines of 1,000 GETs, one after another, every value in order: far fewer round trips than keys.
     */
    @Test
    void moreKeysThanOnePipelineHoldsAreReadInPipelinesOneAfterAnother() {
        int count = 2 * PipelinedGetColorStore.KEYS_PER_PIPELINE + 500;
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            values.put("colors::test::pipelined::" + i, "value " + i);
        }
        byte[][] keys = values.keySet().stream().map(key -> key.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);
        redis().mset(values);
        try (RedisCommandStats stats = RedisCommandStats.connect(TestRedis.url())) {
            List<List<Object>> read = new ArrayList<>();
            RedisCommandStats.Usage usage = stats.usage(() -> read.add(store.getAll(keys)));

            assertThat(read.get(0)).extracting(value -> new String((byte[]) value, StandardCharsets.UTF_8))
                    .containsExactlyElementsOf(values.values());
            assertThat(usage.commands()).containsExactly(Map.entry("get", (long) count));
            assertThat(usage.roundTrips()).as("round trips of %d pipelined GETs", count).isLessThan(count / 100L);
        }
        finally {
            redis().del(values.keySet().toArray(String[]::new));
        }
    }

    /**
     * Ten clients at once, as the benchmark runs: the pipelines borrow pooled connections, which are
     * kept, so however many requests there are, the module opens at most as many connections as the
     * pool holds (without the pool it opens one per request).
     */
    @Test
    void concurrentPipelinesReusePooledConnections() throws Exception {
        int threads = 10;
        int requestsEach = 20;
        ExecutorService clients = Executors.newFixedThreadPool(threads);
        try (RedisCommandStats stats = RedisCommandStats.connect(TestRedis.url())) {
            long connectionsBefore = connectionsReceived(stats);
            Map<String, Long> commands = stats.during(() -> {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    done.add(clients.submit(() -> {
                        for (int i = 0; i < requestsEach; i++) {
                            assertThat(get("/colors").statusCode()).isEqualTo(200);
                        }
                    }));
                }
                done.forEach(PipelinedGetContractTest::await);
            });

            assertThat(commands.get("get")).isEqualTo(148L * threads * requestsEach);
            assertThat(connectionsReceived(stats) - connectionsBefore).as("connections Redis accepted meanwhile").isLessThanOrEqualTo(POOL_SIZE);
        }
        finally {
            clients.shutdownNow();
        }
    }

    private static long connectionsReceived(RedisCommandStats stats) {
        Matcher received = Pattern.compile("total_connections_received:(\\d+)").matcher(stats.info("stats"));
        assertThat(received.find()).isTrue();
        return Long.parseLong(received.group(1));
    }

    private static void await(Future<?> future) {
        try {
            future.get();
        }
        catch (Exception ex) {
            throw new AssertionError(ex);
        }
    }
}
