package dev.colorbench.redis.nearcache.compared;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.colorbench.testkit.EmbeddedRedis;
import dev.colorbench.testkit.RedisCommandStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.builders.StandaloneClientBuilder;
import redis.clients.jedis.csc.Cache;
import redis.clients.jedis.csc.CacheConfig;
import redis.clients.jedis.csc.CacheEntry;
import redis.clients.jedis.csc.CacheKey;
import redis.clients.jedis.csc.DefaultCache;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;

import static dev.colorbench.redis.nearcache.compared.StalenessBench.SETTLED;
import static dev.colorbench.redis.nearcache.compared.StalenessBench.WAIT;
import static dev.colorbench.redis.nearcache.compared.StalenessBench.millis;
import static dev.colorbench.redis.nearcache.compared.StalenessBench.sleep;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Jedis's client-side cache (Jedis 7.4.1, Spring Boot 4.1.2's) against the cases the near cache faces, each test
 * asserting what it does today. It is used as Jedis documents it: a {@code RedisClient} (pooled) built with RESP3 and
 * a {@code CacheConfig}; each pooled connection sends {@code CLIENT TRACKING ON} (default mode), and the replies of
 * read-only commands are kept. A cached reply is answered after the connection that read it has had its pending push
 * messages read, if any are in its socket already; the cache is flushed when a connection is closed.
 *
 * <p>It refuses a server other than Redis 7.4 or later: the client builds, and every command fails. On such a server
 * (the bundled Redis 6.2, or Valkey) every case is skipped, saying so; {@link #refusesRedisBefore74} runs everywhere,
 * on the bundled Redis 6.2. Run the cases with {@code REDIS_SERVER=<a Redis 8 redis-server>}
 * ({@code benchmark/fetch-servers.sh} fetches one), as CI's second run does.
 *
 * <p>What it does, as pinned here: another writer's change is served within milliseconds; a flush empties the cache.
 * A read racing an invalidation that another thread's read handles first keeps the old value for good. After its
 * connections are killed, or Redis restarts empty, every cached value is answered from the cache until a read misses
 * and fails on a dead connection, which flushes the whole cache. A frozen connection goes unnoticed. <b>A failing test
 * here means Jedis changed</b>: check near-cache-library/README.md's comparison table.
 */
class JedisClientSideCacheTest {

    private static StalenessBench bench;

    private RedisClient client;

    private ExecutorService threads;

    @BeforeAll
    static void startRedis() {
        bench = StalenessBench.start("jedis::");
        if (bench.redisAtLeast(7, 4)) {
            System.out.printf("Jedis client-side cache: the cases run on %s%n", bench.server());
        }
        else {
            System.out.printf("Jedis client-side cache: every case but refusesRedisBefore74 skipped, since it refuses %s (Redis 7.4 or later only)%n",
                    bench.server());
        }
    }

    @AfterAll
    static void stopRedis() {
        bench.close();
    }

    @AfterEach
    void closeTheClient() throws InterruptedException {
        if (threads != null) {
            threads.shutdownNow();
            threads.awaitTermination(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }
        if (client != null) {
            client.close();
        }
    }

    /** Skips the case, saying why, where Jedis refuses the server. */
    private static void requireRedis74() {
        assumeTrue(bench.redisAtLeast(7, 4), () -> "Jedis's client-side cache refuses " + bench.server()
                + ": it needs Redis 7.4 or later (CacheConnection.MIN_REDIS_VERSION) and refuses a server that does not call itself redis."
                + " Run with REDIS_SERVER=<a Redis 8 redis-server>; benchmark/fetch-servers.sh fetches one");
    }

    private static RedisClient build(String host, int port, CacheConfig config, Cache cache) {
        StandaloneClientBuilder<RedisClient> builder = RedisClient.builder().hostAndPort(host, port)
                .clientConfig(DefaultJedisClientConfig.builder().resp3().socketTimeoutMillis(2000).connectionTimeoutMillis(2000).build());
        return (cache != null) ? builder.cache(cache).build() : builder.cacheConfig(config).build();
    }

    private Cache open() {
        requireRedis74();
        client = build(bench.host(), bench.port(), CacheConfig.builder().maxSize(10_000).build(), null);
        return client.getCache();
    }

    private String read(String key) {
        return client.get(key);
    }

    /**
     * Jedis refuses a Redis before 7.4 when it makes a connection: the client builds, and every command fails. Here on
     * the bundled Redis 6.2, and on the test's server too if it is such a one.
     */
    @Test
    void refusesRedisBefore74() {
        try (EmbeddedRedis old = EmbeddedRedis.startBundled(); RedisCommandStats stats = RedisCommandStats.connect(old.url())) {
            assertThat(stats.server()).startsWith("Redis 6.");
            assertRefused("127.0.0.1", old.port(), stats.server());
        }
        if (!bench.redisAtLeast(7, 4)) {
            assertRefused(bench.host(), bench.port(), bench.server());
        }
    }

    private static void assertRefused(String host, int port, String server) {
        try (RedisClient refused = build(host, port, CacheConfig.builder().maxSize(100).build(), null)) {
            for (int i = 0; i < 2; i++) {
                assertThatThrownBy(() -> refused.get("jedis::refused")).as("a read through a client with a cache on %s", server)
                        .isInstanceOf(JedisException.class).hasMessageContaining("Client side caching is only supported with 'Redis 7.4' or later");
            }
        }
    }

    @Test
    void whatItCaches() {
        Cache cache = open();
        List<String> keys = bench.keys("cached", 4);
        bench.write(keys, "v0");
        bench.warm(keys, this::read);
        String missing = bench.keys("missing", 1).get(0);
        assertThat(read(missing)).isNull();
        assertThat(client.mget(keys.toArray(String[]::new))).hasSize(4);
        assertThat(client.hget(keys.get(0) + ":hash", "field")).isNull();

        assertThat(bench.commandsDuring(() -> {
            keys.forEach(this::read);
            assertThat(read(missing)).isNull();
            assertThat(client.mget(keys.toArray(String[]::new))).containsExactly(keys.stream().map(key -> key + "-v0").toArray(String[]::new));
            assertThat(client.hget(keys.get(0) + ":hash", "field")).isNull();
        })).as("Redis commands of warm reads: 4 GET, a GET of a missing key, an MGET, an HGET of a missing hash").isEmpty();
        System.out.printf("Jedis client-side cache: %d entries (GET of 4 keys and of a missing one, an MGET, an HGET)%n", cache.getSize());
        assertThat(cache.getSize()).as("entries: each command's reply, a missing key's null among them").isEqualTo(7);
        assertThat(bench.info("stats", "tracking_total_keys")).as("keys Redis tracks (default mode)").isGreaterThanOrEqualTo(6);
    }

    /** Case 1: another writer {@code SET}s keys 100 times; each change is served within {@link StalenessBench#SETTLED}. */
    @Test
    void anotherWritersChangeIsServedWithinASecond() {
        open();
        bench.assertEachChangeServedWithinASecond("Jedis client-side cache", this::read);
    }

    /**
     * Case 2, forced: a read's {@code GET} of a key on connection C1 answered v0; before it is put in the cache, another
     * writer sets v1, and another thread's cache hit, whose entry C1 read, reads C1's pending invalidation and finds
     * nothing to remove. The put then keeps v0, and Redis, having sent the invalidation, tracks the key no more: v0
     * for good. The put is held by a cache of the test's own, a {@code DefaultCache} given to the builder (Jedis's
     * public API), and the hit runs on a second pooled connection.
     */
    @Test
    void aReadRacingAnInvalidationKeepsTheOldValueForGood() throws Exception {
        requireRedis74();
        HoldingCache cache = new HoldingCache();
        client = build(bench.host(), bench.port(), null, cache);
        String key = bench.keys("race", 1).get(0);
        String other = bench.keys("race-other", 1).get(0);
        bench.redis().set(key, "v0");
        bench.redis().set(other, "x0");
        assertThat(read(other)).as("the other key, read on the pool's first connection").isEqualTo("x0");
        threads = Executors.newFixedThreadPool(2);

        cache.holdNextSet(key);
        Future<String> held = threads.submit(() -> read(key));
        cache.awaitHeld();
        bench.redis().set(key, "v1");
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!cache.invalidated(key)) {
            // a hit of the other key on a second connection reads the first connection's pushes
            assertThat(threads.submit(() -> read(other)).get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("x0");
            if (System.nanoTime() > deadline) {
                fail("no hit read the invalidation of %s within %s", key, WAIT);
            }
            sleep(Duration.ofMillis(5));
        }
        cache.release();

        assertThat(held.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("the held read").isEqualTo("v0");
        assertThat(read(key)).as("answered while Redis holds v1").isEqualTo("v0");
        bench.redis().set(key, "v2");
        sleep(SETTLED);
        assertThat(read(key)).as("answered %s after another write, v2", SETTLED).isEqualTo("v0");
        assertThat(bench.redis().get(key)).isEqualTo("v2");
    }

    /** Case 2, unforced: a writer and four readers race for a second; the keys stale {@link StalenessBench#SETTLED} later, if any, stay stale. */
    @Test
    void readsRacingWritesMayLeaveKeysStaleForGood() throws InterruptedException {
        open();
        List<String> keys = bench.keys("racing", 8);
        bench.write(keys, "v0");
        bench.warm(keys, this::read);

        StalenessBench.Race race = bench.racingReaders(keys, 4, Duration.ofSeconds(1), this::read);

        System.out.printf("Jedis client-side cache, case 2 unforced: %d writes and %d reads racing for 1 s; %s after, %d of %d keys stale%n",
                race.writes(), race.reads(), millis(SETTLED), race.settled().stale().size(), keys.size());
        assertThat(race.failures()).as("reads that failed").isZero();
        for (String key : race.settled().stale()) {
            String kept = race.settled().answered().get(key);
            bench.redis().set(key, key + "-after");
            sleep(Duration.ofMillis(100));
            assertThat(read(key)).as("%s, stale, after another write", key).isEqualTo(kept);
        }
    }

    /**
     * Case 3: the connections killed while another writer writes, then every key written while they reconnect. Reads
     * that hit are answered from the cache; the first read that misses fails on a dead connection, which flushes the
     * whole cache; after that, reads are right.
     */
    @Test
    void afterTheConnectionsAreKilledCachedValuesAreAnsweredUntilAMissFails() throws InterruptedException {
        open();
        List<String> keys = bench.keys("killed", 8);
        bench.write(keys, "v0");

        StalenessBench.Reads settled = bench.killedWhileAnotherWriterWrites(keys, this::read);

        System.out.printf("Jedis client-side cache, case 3 (killed): %s after the last writes, %s%n", millis(SETTLED), settled);
        assertThat(settled.failed()).as("reads that failed").isEmpty();
        assertThat(settled.stale()).as("keys stale %s after the writes stopped", SETTLED).containsExactlyElementsOf(keys);
        aMissFailsThenEveryReadIsRight(keys, "killed");
    }

    /** Case 3: Redis restarted empty, half the keys written again, half left missing: as after a kill. */
    @Test
    void afterRedisRestartsEmptyCachedValuesAreAnsweredUntilAMissFails() {
        open();
        List<String> keys = bench.keys("restarted", 8);
        bench.write(keys, "v0");

        StalenessBench.Reads settled = bench.restartedEmpty(keys, this::read);

        System.out.printf("Jedis client-side cache, case 3 (restart): %s after the writes, %s%n", millis(SETTLED), settled);
        assertThat(settled.failed()).as("reads that failed").isEmpty();
        assertThat(settled.stale()).as("keys stale %s after the writes", SETTLED).containsExactlyElementsOf(keys);
        aMissFailsThenEveryReadIsRight(keys, "restart");
    }

    /** A read of a key the cache lacks fails on the dead connection; once reads stop failing, the cache was flushed and every read is right. */
    private void aMissFailsThenEveryReadIsRight(List<String> keys, String named) {
        int before = client.getCache().getSize();
        assertThatThrownBy(() -> read(bench.keys("miss-" + named, 1).get(0))).as("the first read that misses")
                .isInstanceOf(JedisConnectionException.class);
        List<String> failures = new ArrayList<>();
        long deadline = System.nanoTime() + WAIT.toNanos();
        StalenessBench.Reads reads;
        while (!(reads = bench.readAll(keys, this::read)).failed().isEmpty()) {
            failures.addAll(reads.failed());
            if (System.nanoTime() > deadline) {
                fail("reads still fail %s after the first miss: %s", WAIT, reads);
            }
        }
        System.out.printf("Jedis client-side cache, case 3 (%s): the first miss failed, %d more reads failed, then %s (cache %d entries before)%n",
                named, failures.size(), reads, before);
        assertThat(reads.stale()).as("keys stale once reads stopped failing").isEmpty();
    }

    /** Case 4: another writer's {@code FLUSHDB}: the invalidation without keys flushes the cache at the next read on that connection. */
    @Test
    void aFlushEmptiesTheCache() {
        Cache cache = open();
        List<String> keys = bench.keys("flushed", 8);
        bench.write(keys, "v0");
        bench.warm(keys, this::read);
        long flushes = cache.getStats().getFlushCount();

        bench.redis().flushdb();
        // the invalidation comes on its own time: read again until every key is right, within SETTLED, as every case allows
        long flushed = System.nanoTime();
        StalenessBench.Reads reads = bench.readAll(keys, this::read);
        while (!reads.right() && System.nanoTime() - flushed < StalenessBench.SETTLED.toNanos()) {
            sleep(Duration.ofMillis(10));
            reads = bench.readAll(keys, this::read);
        }

        System.out.printf("Jedis client-side cache, case 4: %.0f ms after FLUSHDB, %s; cache flushes %d%n", (System.nanoTime() - flushed) / 1e6, reads,
                cache.getStats().getFlushCount() - flushes);
        assertThat(reads.right()).as("every read within %s of the flush: %s", StalenessBench.SETTLED, reads).isTrue();
        assertThat(cache.getStats().getFlushCount()).as("cache flushes").isGreaterThan(flushes);
    }

    /** Case 5: the connection frozen in the path, open and silent; another writer's change is not served for {@link StalenessBench#WATCH}. */
    @Test
    void aWriteIsNotServedWhileTheConnectionIsFrozen() {
        open();
        bench.assertAChangeIsNotServedWhileFrozen("Jedis client-side cache", this::read);
    }

    /**
     * Jedis's own cache, which can hold the next {@code set} of a key's reply until released, and notes the keys of
     * each invalidation it is given.
     */
    static final class HoldingCache extends DefaultCache {

        private volatile String holding;

        private final CountDownLatch held = new CountDownLatch(1);

        private final CountDownLatch letGo = new CountDownLatch(1);

        private final List<String> invalidated = new java.util.concurrent.CopyOnWriteArrayList<>();

        HoldingCache() {
            super(10_000);
        }

        void holdNextSet(String key) {
            holding = key;
        }

        @Override
        public CacheEntry set(CacheKey cacheKey, CacheEntry entry) {
            String key = holding;
            if (key != null && cacheKey.getRedisKeys().stream().map(HoldingCache::text).anyMatch(key::equals)) {
                holding = null;
                held.countDown();
                await(letGo, "the held set let go");
            }
            return super.set(cacheKey, entry);
        }

        @Override
        public List<CacheKey> deleteByRedisKeys(List keys) {
            if (keys != null) {
                for (Object key : keys) {
                    invalidated.add(text(key));
                }
            }
            return super.deleteByRedisKeys(keys);
        }

        boolean invalidated(String key) {
            return invalidated.contains(key);
        }

        void awaitHeld() {
            await(held, "the read's set reached");
        }

        void release() {
            letGo.countDown();
        }

        private static String text(Object key) {
            return (key instanceof byte[] bytes) ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(key);
        }

        private static void await(CountDownLatch latch, String what) {
            try {
                assertThat(latch.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("%s within %s", what, WAIT).isTrue();
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(ex);
            }
        }
    }
}
