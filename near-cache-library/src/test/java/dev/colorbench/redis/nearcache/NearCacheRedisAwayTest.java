package dev.colorbench.redis.nearcache;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import dev.colorbench.testkit.DelayProxy;
import dev.colorbench.testkit.EmbeddedRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * While Redis is away, a read through the near cache fails fast, with the client's command time-out at its default (60 s),
 * as an application that sets none has it:
 * <ul>
 * <li>Redis holds the read without answering (every connection of the application frozen in a {@link DelayProxy}): the read
 * fails within {@code redis.near-cache.read-timeout}, 1 s by default;</li>
 * <li>the connection is down (Redis stopped): a read fails at once, instead of waiting in Lettuce's queue until it
 * reconnects; and once Redis is back, reads answer again.</li>
 * </ul>
 * A read of a key outside the prefixes is used: never kept, it always goes to Redis.
 */
@SpringBootTest(classes = StringsApplication.class, properties = "redis.near-cache.prefixes=" + NearCacheRedisAwayTest.PREFIX)
@DirtiesContext
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NearCacheRedisAwayTest {

    static final String PREFIX = "away::";

    private static final String OUTSIDE = "elsewhere::k";

    /** The default read time-out, and what a read may take beyond it on a loaded machine. */
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(1);

    private static final Duration MARGIN = Duration.ofMillis(1500);

    /** What "at once" means on a loaded machine: well below the read time-out, which a queued read would wait. */
    private static final Duration AT_ONCE = Duration.ofMillis(700);

    private static final Pattern CLIENT = Pattern.compile("^id=(\\d+) .*\\baddr=(\\S+) ", Pattern.MULTILINE);

    private static final List<String> KEYS = IntStream.range(0, 10).mapToObj(i -> PREFIX + "k" + i).toList();

    private static final EmbeddedRedis REDIS = EmbeddedRedis.start();

    private static final DelayProxy PATH = DelayProxy.start("127.0.0.1", URI.create(REDIS.url()).getPort(), Duration.ZERO);

    private static RedisClient redisClient;

    private static StatefulRedisConnection<String, String> redis;

    @Autowired
    private NearCacheTracking tracking;

    @Autowired
    private NearCache<String> cache;

    @DynamicPropertySource
    static void redisUrl(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.url", () -> "redis://127.0.0.1:" + PATH.port());
    }

    @BeforeAll
    static void connect() {
        redisClient = RedisClient.create(REDIS.url());
        redis = redisClient.connect();
        store();
    }

    @AfterAll
    static void stopRedis() {
        ProxiedRedis.stop(redis, redisClient, PATH, REDIS);
    }

    @Test
    @Order(1)
    void aReadRedisHoldsWithoutAnsweringFailsWithinTheReadTimeout() {
        assertThat(cache.getAll(List.of(OUTSIDE, KEYS.get(0))).values()).containsExactly(OUTSIDE + "-v", KEYS.get(0) + "-v");
        long own = redis.sync().clientId();
        List<String> frozen = new ArrayList<>();
        Matcher client = CLIENT.matcher(redis.sync().clientList());
        while (client.find()) {
            if (Long.parseLong(client.group(1)) != own && PATH.freeze(client.group(2))) {
                frozen.add(client.group(2));
            }
        }
        assertThat(frozen).as("the application's connections through the proxy").isNotEmpty();

        long started = System.nanoTime();
        assertThatExceptionOfType(QueryTimeoutException.class).isThrownBy(() -> cache.getAll(List.of(OUTSIDE)));
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        System.out.printf("Near cache, Redis silent: a read failed after %d ms (read time-out %s, command time-out 60 s)%n", took.toMillis(), READ_TIMEOUT);
        assertThat(took).as("a read Redis does not answer").isBetween(READ_TIMEOUT.minusMillis(50), READ_TIMEOUT.plus(MARGIN));
    }

    @Test
    @Order(2)
    void whileTheConnectionIsDownAReadFailsAtOnceAndOnceRedisIsBackItAnswers() {
        REDIS.stop();
        // the application's connections close with the server; once Lettuce has seen it, reads fail at once
        await("a read fails at once once the connection is down").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(NearCacheRedisAwayTest.this::failsAtOnce);
        assertThat(tracking.isActive()).as("the copies do not answer with Redis gone").isFalse();
        for (int read = 1; read <= 5; read++) {
            long started = System.nanoTime();
            assertThatExceptionOfType(RedisConnectionFailureException.class).as("read %d with Redis gone", read)
                    .isThrownBy(() -> cache.getAll(List.of(OUTSIDE)));
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("read %d with Redis gone", read).isLessThan(AT_ONCE);
        }

        REDIS.startServer();
        long back = System.nanoTime();
        await("the test's own connection is back").atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
            store();
            return true;
        });
        await("reads answer once Redis is back").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> {
            try {
                return cache.getAll(List.of(OUTSIDE)).values().equals(java.util.Arrays.asList(OUTSIDE + "-v"));
            }
            catch (DataAccessException ex) {
                return false;
            }
        });
        System.out.printf("Near cache, Redis stopped and started again: reads answered %d ms after it was back (Lettuce's reconnection)%n",
                Duration.ofNanos(System.nanoTime() - back).toMillis());
    }

    /** Whether a read fails as a connection down, at once; a read that waited for its time-out is not. */
    private boolean failsAtOnce() {
        long started = System.nanoTime();
        try {
            cache.getAll(List.of(OUTSIDE));
            return false;
        }
        catch (RedisConnectionFailureException ex) {
            return System.nanoTime() - started < AT_ONCE.toNanos();
        }
        catch (DataAccessException ex) {
            return false;
        }
    }

    private static void store() {
        Map<String, String> values = new java.util.HashMap<>(KEYS.stream().collect(Collectors.toMap(key -> key, key -> key + "-v")));
        values.put(OUTSIDE, OUTSIDE + "-v");
        redis.sync().mset(values);
    }
}
