package com.example.items;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.colorbench.redis.nearcache.NearCacheManager;
import dev.colorbench.redis.nearcache.NearCacheTracking;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.data.redis.serializer.JdkSerializationRedisSerializer;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static com.example.items.Waits.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's service on a real Redis, which REDIS_URL names (ci.sh starts one): a warm read sends
 * Redis no command, and another writer's change is served within the bound the README states for the
 * default settings, 1.25 s after the writer's reply, once and while it writes every 10 ms.
 */
@SpringBootTest
class ItemServiceTest {

    /** heartbeat + heartbeat-timeout with the defaults: the README's bound for an invalidation that is late. */
    private static final Duration BOUND = Duration.ofMillis(1250);

    private static final Pattern CALLS = Pattern.compile("^cmdstat_([^:]+):calls=(\\d+)", Pattern.MULTILINE);

    private static RedisClient client;

    /** Another writer, and the reader of the server's command counts: a connection of its own, not the application's. */
    private static StatefulRedisConnection<byte[], byte[]> other;

    @Autowired
    private ItemService items;

    @Autowired
    private NearCacheTracking tracking;

    @Autowired
    private NearCacheManager cacheManager;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.url", ItemServiceTest::redisUrl);
    }

    private static String redisUrl() {
        String url = System.getenv("REDIS_URL");
        if (url == null || url.isBlank()) {
            // failed, not skipped: a green build must have run these on a server
            throw new IllegalStateException("Set REDIS_URL to a Redis (6.0 or later) these tests may write to: near-cache-library/sample/ci.sh starts one");
        }
        return url;
    }

    @BeforeAll
    static void connect() {
        client = RedisClient.create(redisUrl());
        other = client.connect(ByteArrayCodec.INSTANCE);
    }

    @AfterAll
    static void disconnect() {
        other.close();
        client.shutdown();
    }

    @BeforeEach
    void tracking() throws InterruptedException {
        await(tracking::isActive, Duration.ofSeconds(10), "tracking");
    }

    @Test
    void aWarmReadSendsRedisNoCommand() throws InterruptedException {
        Item item = new Item("warm", "one");
        saveAndRead(item);

        Map<String, Long> before = commands();
        for (int read = 0; read < 100; read++) {
            assertThat(items.find("warm")).isEqualTo(item);
        }
        assertThat(commands()).as("Redis's command counts, but for the tracking's heartbeat and canary and this test's INFO").isEqualTo(before);
    }

    @Test
    void anotherWritersChangeIsServedWithinTheBound() throws InterruptedException {
        saveAndRead(new Item("shared", "one"));

        // the bytes @CachePut would write: the key <cache name>::<id>, the value in Java serialization
        Item changed = new Item("shared", "two");
        other.sync().set(bytes("items::shared"), new JdkSerializationRedisSerializer().serialize(changed));
        long replied = System.nanoTime();
        while (!changed.equals(items.find("shared"))) {
            assertThat(Duration.ofNanos(System.nanoTime() - replied)).as("the change served").isLessThan(BOUND);
            Thread.sleep(1);
        }
        System.out.printf("another writer's change served %.1f ms after its SET's reply%n", (System.nanoTime() - replied) / 1e6);
    }

    /**
     * Another writer writes an item every 10 ms while this instance reads it through {@code @Cacheable} every millisecond: no
     * read that began more than the bound after a write's reply gives an older value, and no read fails.
     */
    @Test
    void noReadIsStalerThanTheBoundWhileAnotherWriterWrites() throws Exception {
        saveAndRead(new Item("busy", "w0"));
        JdkSerializationRedisSerializer serializer = new JdkSerializationRedisSerializer();
        try (Load load = new Load(n -> other.sync().set(bytes("items::busy"), serializer.serialize(new Item("busy", "w" + n))),
                () -> items.find("busy").name())) {
            Thread.sleep(3000);
            load.assertNoneStaleBeyond(BOUND, "one Redis", 0);
        }
    }

    /** Saved through the service, then read once so that the copy holds it: its own write's invalidation first. */
    private void saveAndRead(Item item) throws InterruptedException {
        long invalidations = tracking.invalidations();
        items.save(item);
        await(() -> tracking.invalidations() > invalidations, Duration.ofSeconds(5), "the save's invalidation");
        assertThat(items.find(item.id())).isEqualTo(item);
        assertThat(cacheManager.getNearCache("items").nearCache().getIfPresent("items::" + item.id())).as("in the copy").isNotNull();
    }

    /** Calls of each command so far, but PING and PSETEX (the tracking's heartbeat and its canary, on a timer) and INFO (this method's own). */
    private static Map<String, Long> commands() {
        String info = other.sync().info("commandstats");
        Map<String, Long> calls = new TreeMap<>();
        Matcher matcher = CALLS.matcher(info);
        while (matcher.find()) {
            calls.put(matcher.group(1), Long.parseLong(matcher.group(2)));
        }
        calls.remove("ping");
        calls.remove("psetex");
        calls.remove("info");
        return calls;
    }

    private static byte[] bytes(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }
}
