package dev.colorbench.redis.nearcache.compared;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TrackingArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.support.caching.CacheAccessor;
import io.lettuce.core.support.caching.CacheFrontend;
import io.lettuce.core.support.caching.ClientSideCaching;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static dev.colorbench.redis.nearcache.compared.StalenessBench.SETTLED;
import static dev.colorbench.redis.nearcache.compared.StalenessBench.WAIT;
import static dev.colorbench.redis.nearcache.compared.StalenessBench.millis;
import static dev.colorbench.redis.nearcache.compared.StalenessBench.sleep;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lettuce's {@code ClientSideCaching} (Lettuce 7.5.2, Spring Boot 4.1.2's) against the cases the near cache faces,
 * each test asserting what it does today. It is used as its Javadoc shows it:
 * {@code ClientSideCaching.enable(CacheAccessor.forMap(map), connection, TrackingArgs.Builder.enabled())}, default
 * tracking mode on the connection that reads, and {@code get(key)}: the map first, else a {@code GET} whose answer is
 * put in the map, with no check; an invalidation removes the key from the map.
 *
 * <p>What it does, as pinned here: another writer's change is served within milliseconds. A read racing an
 * invalidation keeps the old value for good; so does every value held when the connection is killed or Redis
 * restarts (Lettuce reconnects but never asks for tracking again, and keeps the map), and when the database is flushed
 * (the invalidation without keys throws in its listener, and Redis forgets what it tracked). A frozen connection goes
 * unnoticed. <b>A failing test here means Lettuce changed</b>: check near-cache-library/README.md's comparison table.
 */
class LettuceClientSideCachingTest {

    private static StalenessBench bench;

    private RedisClient client;

    private StatefulRedisConnection<String, String> connection;

    private CacheFrontend<String, String> cache;

    private ExecutorService reader;

    @BeforeAll
    static void startRedis() {
        bench = StalenessBench.start("lettuce::");
        System.out.printf("Lettuce ClientSideCaching: the cases run on %s%n", bench.server());
    }

    @AfterAll
    static void stopRedis() {
        bench.close();
    }

    @AfterEach
    void closeTheClient() throws InterruptedException {
        if (reader != null) {
            reader.shutdownNow();
            reader.awaitTermination(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }
        if (cache != null) {
            cache.close();
        }
        if (client != null) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        }
    }

    /** A client through the path (command time-out 1 s), its connection tracking, and the cache over {@code map}. */
    private void open(CacheAccessor<String, String> map) {
        RedisURI uri = RedisURI.create(bench.url());
        uri.setTimeout(Duration.ofSeconds(1));
        client = RedisClient.create(uri);
        connection = client.connect();
        cache = ClientSideCaching.enable(map, connection, TrackingArgs.Builder.enabled());
    }

    private Map<String, String> open() {
        Map<String, String> map = new ConcurrentHashMap<>();
        open(CacheAccessor.forMap(map));
        return map;
    }

    private String read(String key) {
        return cache.get(key);
    }

    @Test
    void whatItCachesAndTheServerItTracksOn() {
        Map<String, String> map = open();
        List<String> keys = bench.keys("cached", 4);
        bench.write(keys, "v0");
        bench.warm(keys, this::read);

        assertThat(bench.commandsDuring(() -> keys.forEach(this::read))).as("Redis commands of 4 warm reads").isEmpty();
        assertThat(map).as("what the map holds: each value its get(key) read").hasSize(4).containsEntry(keys.get(0), keys.get(0) + "-v0");
        String missing = bench.keys("missing", 1).get(0);
        assertThat(bench.commandsDuring(() -> {
            assertThat(read(missing)).isNull();
            assertThat(read(missing)).isNull();
        })).as("two reads of a key Redis does not hold").containsEntry("get", 2L);
        assertThat(bench.trackingClients()).as("tracking connections: the one that reads").isEqualTo(1);
        assertThat(bench.info("stats", "tracking_total_keys")).as("keys Redis tracks for it (default mode)").isGreaterThanOrEqualTo(4);
    }

    /** Case 1: another writer {@code SET}s keys 100 times; each change is served within {@link StalenessBench#SETTLED}. */
    @Test
    void anotherWritersChangeIsServedWithinASecond() {
        open();
        bench.assertEachChangeServedWithinASecond("Lettuce ClientSideCaching", this::read);
    }

    /**
     * Case 2, forced: the read's {@code GET} answered v0, and before its put another writer sets v1 and its
     * invalidation is handled (the map had nothing to remove); the put then keeps v0. Redis sent the invalidation once
     * and tracks the key no more, so a later write is not reported either: v0 for good. The put is held by the map the
     * application gives ({@code CacheAccessor}, its public interface).
     */
    @Test
    void aReadRacingAnInvalidationKeepsTheOldValueForGood() throws Exception {
        HoldingAccessor map = new HoldingAccessor();
        open(map);
        String key = bench.keys("race", 1).get(0);
        bench.redis().set(key, "v0");
        reader = Executors.newSingleThreadExecutor();

        map.holdNextPut(key);
        Future<String> read = reader.submit(() -> read(key));
        map.awaitHeld();
        bench.redis().set(key, "v1");
        map.awaitEvicted();
        map.release();

        assertThat(read.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("the held read").isEqualTo("v0");
        assertThat(read(key)).as("answered while Redis holds v1").isEqualTo("v0");
        assertThat(bench.info("stats", "tracking_total_keys")).as("keys Redis tracks: none, so no invalidation will come").isZero();
        bench.redis().set(key, "v2");
        sleep(SETTLED);
        assertThat(read(key)).as("answered %s after another write, v2", SETTLED).isEqualTo("v0");
    }

    /** Case 2, unforced: a writer and two readers race for 500 ms; {@link StalenessBench#SETTLED} later, keys are stale. */
    @Test
    void readsRacingWritesLeaveKeysStaleForGood() throws InterruptedException {
        open();
        List<String> keys = bench.keys("racing", 8);
        bench.write(keys, "v0");
        bench.warm(keys, this::read);

        StalenessBench.Race race = bench.racingReaders(keys, 2, Duration.ofMillis(500), this::read);

        System.out.printf("Lettuce ClientSideCaching, case 2 unforced: %d writes and %d reads racing for 500 ms; %s after, %d of %d keys stale%n",
                race.writes(), race.reads(), millis(SETTLED), race.settled().stale().size(), keys.size());
        assertThat(race.settled().stale()).as("keys stale %s after the racing writes stopped", SETTLED).isNotEmpty();
        sleep(SETTLED);
        assertThat(bench.readAll(keys, this::read).stale()).as("stale a second later still").containsAll(race.settled().stale());
    }

    /** Case 3: the connection killed while another writer writes, then every key written while it reconnects. */
    @Test
    void afterTheConnectionIsKilledNoChangeIsServedAgain() throws InterruptedException {
        open();
        List<String> keys = bench.keys("killed", 8);
        bench.write(keys, "v0");

        StalenessBench.Reads settled = bench.killedWhileAnotherWriterWrites(keys, this::read);

        System.out.printf("Lettuce ClientSideCaching, case 3 (killed): %s after the last writes, %s%n", millis(SETTLED), settled);
        assertThat(settled.failed()).as("reads that failed").isEmpty();
        assertThat(settled.stale()).as("keys stale %s after the writes stopped", SETTLED).containsExactlyElementsOf(keys);
        assertThat(bench.trackingClients()).as("tracking connections once Lettuce reconnected").isZero();
        bench.redis().set(keys.get(0), "after-reconnect");
        sleep(SETTLED);
        assertThat(read(keys.get(0))).as("a write after the reconnect, %s later", SETTLED).isEqualTo(settled.answered().get(keys.get(0)));
    }

    /** Case 3: Redis restarted empty, half the keys written again, half left missing. */
    @Test
    void afterRedisRestartsEmptyEveryValueFromBeforeIsKept() {
        open();
        List<String> keys = bench.keys("restarted", 8);
        bench.write(keys, "v0");

        StalenessBench.Reads settled = bench.restartedEmpty(keys, this::read);

        System.out.printf("Lettuce ClientSideCaching, case 3 (restart): %s after the writes, %s%n", millis(SETTLED), settled);
        assertThat(settled.failed()).as("reads that failed").isEmpty();
        assertThat(settled.stale()).as("keys stale %s after the writes", SETTLED).containsExactlyElementsOf(keys);
        keys.forEach(key -> assertThat(settled.answered().get(key)).as(key).isEqualTo(key + "-v0"));
        assertThat(bench.trackingClients()).as("tracking connections once Lettuce reconnected").isZero();
    }

    /**
     * Case 4: Redis sends an invalidation without keys for a {@code FLUSHDB}, and Lettuce's listener throws on it
     * ({@code keys.forEach} on null, logged by Lettuce as a warning): the map keeps every value, and Redis, which forgot
     * what it tracked, reports no later write either.
     */
    @Test
    void aFlushLeavesTheMapAsItWasForGood() {
        Map<String, String> map = open();
        List<String> keys = bench.keys("flushed", 8);
        bench.write(keys, "v0");
        bench.warm(keys, this::read);

        bench.redis().flushdb();
        sleep(SETTLED);

        StalenessBench.Reads settled = bench.readAll(keys, this::read);
        System.out.printf("Lettuce ClientSideCaching, case 4: %s after FLUSHDB, %s; %d values in the map%n", millis(SETTLED), settled, map.size());
        assertThat(settled.stale()).as("keys answered %s after the flush, which Redis does not hold", SETTLED).containsExactlyElementsOf(keys);
        assertThat(map).as("the map after the flush").hasSize(keys.size());
        bench.redis().set(keys.get(0), "after-flush");
        sleep(SETTLED);
        assertThat(read(keys.get(0))).as("a write after the flush, %s later", SETTLED).isEqualTo(keys.get(0) + "-v0");
    }

    /** Case 5: the connection frozen in the path, open and silent; another writer's change is not served for {@link StalenessBench#WATCH}. */
    @Test
    void aWriteIsNotServedWhileTheConnectionIsFrozen() {
        open();
        bench.assertAChangeIsNotServedWhileFrozen("Lettuce ClientSideCaching", this::read);
    }

    /** The map of a test's own: it can hold the next put of a key until released, and counts the keys the invalidations removed. */
    static final class HoldingAccessor implements CacheAccessor<String, String> {

        private final Map<String, String> map = new ConcurrentHashMap<>();

        private volatile String holding;

        private final CountDownLatch held = new CountDownLatch(1);

        private final CountDownLatch evicted = new CountDownLatch(1);

        private final CountDownLatch letGo = new CountDownLatch(1);

        void holdNextPut(String key) {
            holding = key;
        }

        @Override
        public String get(String key) {
            return map.get(key);
        }

        @Override
        public void put(String key, String value) {
            if (key.equals(holding)) {
                holding = null;
                held.countDown();
                await(letGo, "the held put let go");
            }
            map.put(key, value);
        }

        @Override
        public void evict(String key) {
            map.remove(key);
            evicted.countDown();
        }

        void awaitHeld() {
            await(held, "the read's put reached");
        }

        void awaitEvicted() {
            await(evicted, "the invalidation handled");
        }

        void release() {
            letGo.countDown();
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
