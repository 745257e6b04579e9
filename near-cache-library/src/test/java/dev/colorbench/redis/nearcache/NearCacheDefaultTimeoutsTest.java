package dev.colorbench.redis.nearcache;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import dev.colorbench.testkit.DelayProxy;
import dev.colorbench.testkit.EmbeddedRedis;
import dev.colorbench.testkit.RedisCommandStats;
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
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The heartbeat under Spring Boot's and Lettuce's default time-outs (no {@code spring.data.redis.timeout}:
 * Lettuce's 60 s), where the heartbeat's own time-out, not the command's, is what bounds staleness:
 * <ul>
 * <li>a stall of Redis shorter than the command time-out (every client paused for 2.5 s) makes the copy
 * late, not dropped: it answers again, warm, when the late {@code PING} is answered, and no new session
 * begins, so no instance stampedes Redis after a stall;</li>
 * <li>the tracking connection gone silent without closing (frozen in a {@link DelayProxy}): another
 * writer's change is served within {@link #SILENT_BOUND}, since the late copy stops answering and reads go
 * to Redis.</li>
 * </ul>
 */
// the delayed path adds 3 s to each read of Redis, which the default read time-out of 1 s would fail (NearCacheRedisAwayTest)
@SpringBootTest(classes = StringsApplication.class, properties = { "redis.near-cache.prefixes=" + NearCacheDefaultTimeoutsTest.PREFIX,
        "redis.near-cache.read-timeout=10s" })
@DirtiesContext
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NearCacheDefaultTimeoutsTest {

    static final String PREFIX = "quiet::";

    /** Heartbeat + heartbeat time-out, 1.25 s, and 250 ms for the threads on a busy machine. */
    static final Duration SILENT_BOUND = Duration.ofMillis(1500);

    /** Heartbeat + heartbeat time-out, 1.25 s, and 250 ms for the threads on a busy machine. */
    static final Duration HEARTBEAT_BOUND = Duration.ofMillis(1500);

    private static final List<String> KEYS = IntStream.range(0, 20).mapToObj(i -> PREFIX + "k" + i).toList();

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
        redis.sync().mset(KEYS.stream().collect(Collectors.toMap(key -> key, key -> key + "-v0")));
    }

    @AfterAll
    static void stopRedis() {
        ProxiedRedis.stop(redis, redisClient, PATH, REDIS);
    }

    @Test
    @Order(1)
    void aStallShorterThanTheCommandTimeoutKeepsTheCopy() throws InterruptedException {
        awaitWarm();
        long sessions = tracking.sessions();
        long drops = tracking.drops();
        long lates = tracking.lates();
        RedisClient pauser = RedisClient.create(REDIS.url());
        try (StatefulRedisConnection<String, String> pause = pauser.connect()) {
            // timed from before the pause is sent, and watched throughout: a check at one instant after the reply
            // could land past the stall's end on a loaded machine, when the copy answers again, as it should
            long sent = System.nanoTime();
            pause.sync().clientPause(2500);
            boolean stoppedAnswering = false;
            while (!stoppedAnswering && System.nanoTime() - sent < Duration.ofMillis(2500).toNanos()) {
                stoppedAnswering = !tracking.isActive();
                Thread.sleep(5);
            }
            assertThat(stoppedAnswering).as("the copy stopped answering during a 2.5 s stall").isTrue();
        }
        finally {
            pauser.shutdown();
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        while (!tracking.isActive() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }

        assertThat(tracking.isActive()).as("the copy answering once the stall is over").isTrue();
        assertThat(tracking.lates()).as("late heartbeats").isGreaterThan(lates);
        assertThat(tracking.drops()).as("copies dropped").isEqualTo(drops);
        assertThat(tracking.sessions()).as("sessions begun: none, the copy was kept").isEqualTo(sessions);
        try (RedisCommandStats stats = RedisCommandStats.connect(REDIS.url())) {
            assertThat(stats.during(() -> cache.getAll(KEYS))).as("a read right after the stall: still warm").isEmpty();
        }
    }

    /**
     * Delivery delayed far past the bound: the path to Redis adds 3 s to every round trip, so the
     * invalidation of another writer's change arrives 1.5 s late each way. The heartbeat, not the
     * delivery, bounds what the copy serves: no read that starts later than {@link #HEARTBEAT_BOUND}
     * after the write's reply answers the old value, and the copy is late, not dropped.
     */
    @Test
    @Order(2)
    void aDelayedDeliveryIsBoundedByTheHeartbeat() throws InterruptedException {
        awaitWarm();
        long drops = tracking.drops();
        String key = KEYS.get(3);
        String before = cache.getAll(List.of(key)).values().get(0);
        String after = key + "-delayed";
        PATH.setAddedRoundTrip(Duration.ofSeconds(3));
        try {
            redis.sync().set(key, after);
            long written = System.nanoTime();
            long lastStale = -1;
            while (true) {
                long started = System.nanoTime();
                String value = cache.getAll(List.of(key)).values().get(0);
                if (after.equals(value)) {
                    break;
                }
                assertThat(value).isEqualTo(before);
                lastStale = started - written;
                assertThat(Duration.ofNanos(lastStale)).as("a read of the value from before, started after the write").isLessThanOrEqualTo(HEARTBEAT_BOUND);
            }
            System.out.printf("Near cache, delivery 1.5 s late each way: the last read of the value from before started %.2f ms after the write"
                    + " (bound %s)%n", lastStale / 1e6, HEARTBEAT_BOUND);
        }
        finally {
            PATH.setAddedRoundTrip(Duration.ZERO);
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!tracking.isActive() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(tracking.isActive()).as("the copy answering once the delay is gone").isTrue();
        assertThat(tracking.drops()).as("copies dropped: none, the copy was late").isEqualTo(drops);
    }

    /** Last: the frozen connection stays late until Lettuce's 60 s command time-out fails its PING. */
    @Test
    @Order(3)
    void theHeartbeatBoundsStalenessWhenTheTrackingConnectionGoesSilent() {
        awaitWarm();
        List<String> silent = trackingClientsNow();
        assertThat(silent).isNotEmpty();
        silent.forEach(address -> assertThat(PATH.freeze(address)).isTrue());

        String key = KEYS.get(7);
        String after = key + "-while-silent";
        redis.sync().set(key, after);
        // judged by when the read started: a read started within the bound may answer after it on a loaded machine
        Duration served = new Reads(cache, tracking).awaitServed(key, after, System.nanoTime(), SILENT_BOUND);
        System.out.printf("Near cache, default time-outs: tracking connection silent, another writer's change served to a read started"
                + " %.2f ms after the write (bound %s)%n", served.toNanos() / 1e6, SILENT_BOUND);
    }

    /** Until a read of every key costs Redis nothing, within 5 s. */
    private void awaitWarm() {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        try (RedisCommandStats stats = RedisCommandStats.connect(REDIS.url())) {
            while (true) {
                Map<String, Long> cost;
                try {
                    cost = stats.during(() -> cache.getAll(KEYS));
                }
                catch (DataAccessException ex) {
                    cost = Map.of("failed", 1L);
                }
                if (cost.isEmpty()) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    fail("a read still costs %s after 5 s (tracking %s)", cost, tracking.servers());
                }
                try {
                    Thread.sleep(20);
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** The address (the proxy's end) of each connection Redis lists with the tracking flag. */
    private static List<String> trackingClientsNow() {
        return TrackingClients.addresses(redis.sync().clientList());
    }
}
