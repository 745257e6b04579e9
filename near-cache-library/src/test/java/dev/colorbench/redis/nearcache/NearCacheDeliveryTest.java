package dev.colorbench.redis.nearcache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import dev.colorbench.testkit.EmbeddedRedis;
import io.lettuce.core.RedisClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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
 * Delivery proven, not assumed: faults under which the tracking connection answers its heartbeat but
 * invalidations do not arrive on it. The application reaches Redis through a {@link RespProxy}; another
 * writer writes straight to the server, and each change must be served within {@link #BOUND} of the
 * write's reply, judged by when each read started:
 * <ul>
 * <li>the proxy relays every reply but drops push frames;</li>
 * <li>the tracking connection is left on a server that is no longer the one the data connection reaches
 * (a demoted master): the proxy sends new connections to a second server, and the data connection is
 * killed so that it reconnects there, while the tracking connection stays on the first.</li>
 * </ul>
 * Before the delivery check, both served the old value for the whole time-to-live.
 */
@SpringBootTest(classes = StringsApplication.class, properties = "redis.near-cache.prefixes=" + NearCacheDeliveryTest.PREFIX)
@DirtiesContext
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NearCacheDeliveryTest {

    static final String PREFIX = "delivered::";

    /** Heartbeat + heartbeat time-out, 1.25 s, and 250 ms for the threads on a busy machine; the fault without the check gives the 10 min time-to-live. */
    static final Duration BOUND = Duration.ofMillis(1500);

    private static final List<String> KEYS = IntStream.range(0, 10).mapToObj(i -> PREFIX + "k" + i).toList();

    private static final EmbeddedRedis REDIS = EmbeddedRedis.start();

    private static final RespProxy PATH = RespProxy.start(REDIS.port());

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
        redis.sync().mset(values("v0"));
    }

    @AfterAll
    static void stopRedis() {
        try {
            redis.close();
            redisClient.shutdown();
        }
        finally {
            PATH.close();
            REDIS.stop();
        }
    }

    @Test
    @Order(1)
    void aChangeIsServedWithinTheBoundWhenPushesAreDropped() throws InterruptedException {
        awaitAnswering(List.of(KEYS.get(0)));
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        new NearCacheMetrics(tracking).bindTo(meters);
        assertThat(meters.get("near.cache.server.tracking").tag("server", "Redis").gauge().value()).as("the server's own meter").isEqualTo(1);
        // every heartbeat's canary is a push from the server, and proves a round trip
        io.micrometer.core.instrument.FunctionCounter pushes = meters.get("near.cache.server.pushes").tag("server", "Redis").functionCounter();
        io.micrometer.core.instrument.FunctionTimer canaries = meters.get("near.cache.server.canary").tag("server", "Redis").functionTimer();
        double pushed = pushes.count();
        double proven = canaries.count();
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (pushes.count() == pushed || canaries.count() == proven) {
            assertThat(System.nanoTime()).as("a push and a canary proven within %s", BOUND).isLessThan(deadline);
            Thread.sleep(5);
        }
        assertThat(canaries.mean(java.util.concurrent.TimeUnit.MILLISECONDS)).as("a canary's round trip, ms").isPositive()
                .isLessThan(BOUND.toMillis());
        long drops = tracking.drops();
        long undelivered = tracking.undelivered();
        PATH.dropPushes(true);
        try {
            String key = KEYS.get(0);
            redis.sync().set(key, key + "-while-pushes-dropped");
            awaitServed(key, key + "-while-pushes-dropped", "push frames dropped on the way");
            assertThat(tracking.drops()).as("copies dropped for an undelivered canary").isGreaterThan(drops);
            assertThat(tracking.undelivered()).as("of them, for an undelivered canary").isGreaterThan(undelivered);
            assertThat(tracking.lastDrop()).as("the last drop's cause").contains("canary");
            assertThat(meters.get("near.cache.drops").tag("reason", "delivery").functionCounter().count()).as("the meter")
                    .isEqualTo(tracking.undelivered());
            assertThat(tracking.connectionDrops() + tracking.undelivered()).as("drops, by reason").isEqualTo(tracking.drops());
            assertThat(new NearCacheHealthIndicator(tracking).health(true).getDetails()).as("health").containsEntry("undelivered", tracking.undelivered())
                    .containsKey("lastDrop");
        }
        finally {
            PATH.dropPushes(false);
        }
        awaitAnswering(List.of(KEYS.get(1)));
    }

    @Test
    @Order(2)
    void aChangeIsServedWithinTheBoundWhenTheTrackingConnectionIsLeftOnAnotherServer() throws InterruptedException {
        EmbeddedRedis promoted = EmbeddedRedis.start();
        RedisClient promotedClient = RedisClient.create(promoted.url());
        try (StatefulRedisConnection<String, String> writer = promotedClient.connect()) {
            writer.sync().mset(values("v0"));
            String key = KEYS.get(2);
            awaitAnswering(List.of(key));
            PATH.redirect(promoted.port());
            // every connection of the application's to the first server but the tracking one: the data connection reconnects to the second
            long own = redis.sync().clientId();
            for (String id : dataClients(redis.sync().clientList(), own)) {
                redis.sync().clientKill(io.lettuce.core.KillArgs.Builder.id(Long.parseLong(id)));
            }
            writer.sync().set(key, key + "-on-the-promoted-master");
            awaitServed(key, key + "-on-the-promoted-master", "the tracking connection left on another server");
            assertThat(tracking.lastDrop()).as("the last drop's cause").contains("another server");
            awaitAnswering(List.of(KEYS.get(3)));
            // tracking again, now on the second server: a change there is served as ever
            writer.sync().set(KEYS.get(3), "after-the-move");
            awaitServed(KEYS.get(3), "after-the-move", "tracking the second server");
        }
        finally {
            promotedClient.shutdown();
            promoted.stop();
            PATH.redirect(REDIS.port());
        }
    }

    /** Reads {@code key} until it is {@code expected}; fails if a read that started {@link #BOUND} after the write still shows another value. */
    private void awaitServed(String key, String expected, String fault) {
        Duration served = new Reads(cache, tracking).awaitServed(key, expected, System.nanoTime(), BOUND);
        System.out.printf("Near cache, %s: another writer's change served to a read started %.2f ms after the write (bound %s)%n", fault,
                served.toNanos() / 1e6, BOUND);
    }

    /** Until a read of {@code keys} is answered from the copy, within 10 s. */
    private void awaitAnswering(List<String> keys) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            try {
                cache.getAll(keys);
                long hits = cache.statistics().hits();
                cache.getAll(keys);
                if (tracking.isActive() && cache.statistics().hits() >= hits + keys.size()) {
                    return;
                }
            }
            catch (DataAccessException ex) {
                // not yet
            }
            if (System.nanoTime() > deadline) {
                fail("the copy does not answer after 10 s (servers %s, last drop %s)", tracking.servers(), tracking.lastDrop());
            }
            Thread.sleep(20);
        }
    }

    /** The ids of the connections Redis lists without the tracking flag, but {@code own}. */
    private static List<String> dataClients(String clientList, long own) {
        List<String> tracked = TrackingClients.ids(clientList);
        List<String> ids = new ArrayList<>();
        for (String line : clientList.split("\n")) {
            String id = line.startsWith("id=") ? line.substring(3, line.indexOf(' ')) : null;
            if (id != null && !tracked.contains(id) && Long.parseLong(id) != own) {
                ids.add(id);
            }
        }
        return ids;
    }

    private static Map<String, String> values(String version) {
        return KEYS.stream().collect(Collectors.toMap(key -> key, key -> key + "-" + version));
    }
}
