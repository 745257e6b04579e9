package dev.colorbench.redis.nearcache;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import dev.colorbench.testkit.BackgroundLoad;
import dev.colorbench.testkit.DelayProxy;
import dev.colorbench.testkit.EmbeddedRedis;
import dev.colorbench.testkit.RedisCommandStats;
import dev.colorbench.testkit.statistics.Statistics;
import io.lettuce.core.KeyValue;
import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.dao.DataAccessException;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The near cache's staleness bound, on a real Redis, through a tiny application that reads 100 string
 * keys under {@code test::} as a {@link NearCache} of strings and joins them all as a {@link Derived}
 * value. Another writer is a plain connection of the test's own:
 *
 * <ul>
 * <li>warm reads (the joined value, one key, a subset) cost Redis no command and no round trip;</li>
 * <li>Redis tracks one connection, under one prefix, and keeps no table of the keys it read;</li>
 * <li>one write at a time, 200 of them: each is served within {@link #SETTLED} of the {@code SET}'s
 * reply, every read before shows the value from before, and the invalidation's own delivery is timed;</li>
 * <li>while writes go on, the connections cut, Redis restarted empty, the database flushed, or reads
 * racing writes: once the writes stop and {@link #SETTLED} has passed, every read is what Redis holds;</li>
 * <li>the tracking connection goes silent without closing (frozen in a {@link DelayProxy}): a write is
 * served within {@link #SILENT_BOUND}, and a new tracking connection replaces the silent one;</li>
 * <li>a missing or unreadable value is answered as such and never kept.</li>
 * </ul>
 *
 * <p>The test owns its Redis ({@code REDIS_SERVER} names another server binary), because it kills
 * connections, restarts the server and flushes it.
 */
@SpringBootTest(classes = NearCacheStalenessTest.Application.class, properties = {
        "redis.near-cache.prefixes=" + NearCacheStalenessTest.PREFIX,
        "spring.data.redis.timeout=500ms",
        "spring.data.redis.connect-timeout=500ms" })
@DirtiesContext
class NearCacheStalenessTest {

    static final String PREFIX = "test::";

    /** How long after another writer's {@code SET} (its reply) a read may still show the value from before. */
    static final Duration SETTLED = Duration.ofSeconds(1);

    /** How stale a read may be while the tracking connection is silent: heartbeat + heartbeat time-out, 1.25 s, and 250 ms for the threads on a busy machine. */
    static final Duration SILENT_BOUND = Duration.ofMillis(1500);

    private static final Duration WARM = Duration.ofSeconds(5);

    private static final int WRITES = 200;

    private static final int WARM_UP_WRITES = 50;

    private static final List<String> KEYS = IntStream.range(0, 100).mapToObj(i -> PREFIX + "k" + i).toList();

    /** A key of the prefix that no case reads: {@link #invalidationsDelivered} writes it after the writes it waits for. */
    private static final String BARRIER = PREFIX + "barrier";

    private static final EmbeddedRedis REDIS = EmbeddedRedis.start();

    /** The application's path to Redis: adds nothing, and can freeze one connection. */
    private static final DelayProxy PATH = DelayProxy.start("127.0.0.1", URI.create(REDIS.url()).getPort(), Duration.ZERO);

    private static RedisClient redisClient;

    private static StatefulRedisConnection<String, String> redis;

    @Autowired
    private NearCacheTracking tracking;

    @Autowired
    private NearCache<String> cache;

    @Autowired
    private Derived<String> joined;

    /** The application: string values, a value starting with {@code bad} unreadable, and every key joined. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        @Bean
        NearCache<String> strings(NearCacheTracking tracking) {
            return tracking.newCache("strings", (key, stored) -> {
                String value = new String(stored, StandardCharsets.UTF_8);
                return value.startsWith("bad") ? null : value;
            });
        }

        @Bean
        Derived<String> joined(NearCache<String> strings) {
            return strings.derive(KEYS, NearCacheStalenessTest::join);
        }
    }

    @DynamicPropertySource
    static void redisUrl(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.url", () -> "redis://127.0.0.1:" + PATH.port());
    }

    @BeforeAll
    static void connect() {
        redisClient = RedisClient.create(REDIS.url());
        redis = redisClient.connect();
        redis.sync().mset(initial());
        redis.sync().set(BARRIER, "barrier");
        try (RedisCommandStats stats = RedisCommandStats.connect(REDIS.url())) {
            System.out.printf("Near cache: the staleness tests run on %s%n", stats.server());
        }
    }

    @AfterAll
    static void stopRedis() {
        ProxiedRedis.stop(redis, redisClient, PATH, REDIS);
    }

    /** Whatever a case changed, Redis holds the first values again and the cache serves them. */
    @AfterEach
    void restore() {
        redis.sync().mset(initial());
        String expected = join(initial().values().stream().toList());
        awaitRead(() -> joined.get(), expected, SETTLED);
    }

    @Test
    void warmReadsCostRedisNothing() {
        awaitWarm();
        try (RedisCommandStats stats = RedisCommandStats.connect(REDIS.url())) {
            RedisCommandStats.Usage usage = whileTheCopyAnswers(() -> stats.usage(() -> {
                for (int i = 0; i < 20; i++) {
                    switch (i % 4) {
                        case 0, 1 -> assertThat(joined.get()).isNotEmpty();
                        case 2 -> assertThat(cache.getIfPresent(key(i))).isNotNull();
                        default -> assertThat(cache.getAll(List.of(key(i), key(i + 1))).complete()).isTrue();
                    }
                }
            }));

            assertThat(usage.commands()).as("Redis commands of 20 warm reads").isEmpty();
            assertThat(usage.roundTrips()).as("round trips of 20 warm reads").isIn(0L, null);
        }
    }

    /** Broadcast mode, seen from the server: one client tracks, under one prefix, and Redis keeps no table of the keys it read. */
    @Test
    void redisTracksOnePrefixForOneConnectionAndRemembersNoKeys() {
        awaitWarm();
        assertThat(cache.getAll(KEYS).complete()).isTrue();

        assertThat(redis.sync().info("clients")).contains("tracking_clients:1");
        assertThat(redis.sync().info("stats")).contains("tracking_total_keys:0", "tracking_total_prefixes:1");
    }

    /**
     * One write at a time: each served within {@link #SETTLED}, nothing but the value before until then;
     * the percentiles of the whole (from the {@code SET}'s reply to the first read with the new value) and of
     * the invalidation's own delivery (to the push message being handled) are printed.
     */
    @Test
    void anotherWritersChangeIsServedWithinTheBound() {
        awaitWarm();
        Map<String, String> current = new LinkedHashMap<>(initial());
        List<Long> served = new ArrayList<>();
        List<Long> delivered = new ArrayList<>();
        int staleReads = 0;
        for (int i = -WARM_UP_WRITES; i < WRITES; i++) {
            String key = key(i);
            String before = current.get(key);
            String after = key + "-w" + (i + WARM_UP_WRITES);
            Supplier<String> read = (Math.floorMod(i, 2) == 0) ? () -> cache.getAll(List.of(key)).values().get(0) : () -> valueIn(joined.get(), key);

            long received = tracking.invalidations();
            redis.sync().set(key, after);
            long written = System.nanoTime();
            long handled = -1;
            int stale = 0;
            while (true) {
                if (handled < 0 && tracking.invalidations() != received) {
                    handled = System.nanoTime() - written;
                }
                String value = read.get();
                long now = System.nanoTime();
                if (after.equals(value)) {
                    if (i >= 0) {
                        served.add(now - written);
                        staleReads += stale;
                    }
                    break;
                }
                assertThat(value).as("%s while it is changed: the value before or after", key).isEqualTo(before);
                stale++;
                if (now - written > SETTLED.toNanos()) {
                    fail("%s still reads its value from before a write %s ago", key, SETTLED);
                }
            }
            while (handled < 0) {
                if (tracking.invalidations() != received) {
                    handled = System.nanoTime() - written;
                }
                else if (System.nanoTime() - written > SETTLED.toNanos()) {
                    fail("no invalidation of %s within %s", key, SETTLED);
                }
            }
            if (i >= 0) {
                delivered.add(handled);
            }
            current.put(key, after);
        }
        served.sort(null);
        delivered.sort(null);
        System.out.printf("Near cache: over %d writes, served after the SET reply p50 %s, p99 %s, max %s; invalidation handled p50 %s,"
                + " p99 %s, max %s (bound: each <= %s); %d reads with the value from before%n", WRITES, millis(percentile(served, 50)),
                millis(percentile(served, 99)), millis(percentile(served, 100)), millis(percentile(delivered, 50)),
                millis(percentile(delivered, 99)), millis(percentile(delivered, 100)), millis(SETTLED.toNanos()), staleReads);
        assertThat(Duration.ofNanos(percentile(served, 100))).as("the stalest of %d writes", WRITES).isLessThanOrEqualTo(SETTLED);
    }

    @Test
    void noReadIsStaleAfterTheConnectionsAreCutWhileAnotherWriterWrites() throws InterruptedException {
        awaitWarm();
        List<String> keys = keys(8);
        try (BackgroundLoad load = load(keys, 2)) {
            for (int cut = 0; cut < 3; cut++) {
                Thread.sleep(300);
                redis.sync().clientKill(KillArgs.Builder.typeNormal());
            }
            Thread.sleep(300);
        }
        // the last writes land while the application reconnects: no invalidation will ever tell it about them
        redis.sync().clientKill(KillArgs.Builder.typeNormal());
        for (int i = 0; i < keys.size(); i++) {
            redis.sync().set(keys.get(i), keys.get(i) + "-last");
        }

        assertEveryReadIsWhatRedisHoldsOnceSettled();
        awaitWarm();
    }

    @Test
    void noReadIsStaleAfterRedisRestartsEmptyWhileAnotherWriterWrites() {
        awaitWarm();
        REDIS.stop();
        REDIS.startServer();
        RedisClient writerClient = RedisClient.create(REDIS.url());
        try (StatefulRedisConnection<String, String> writer = writerClient.connect()) {
            writer.sync().mset(initial());
            for (String key : keys(8)) {
                writer.sync().set(key, key + "-after-restart");
            }
        }
        finally {
            writerClient.shutdown();
        }

        assertEveryReadIsWhatRedisHoldsOnceSettled();
        awaitWarm();
    }

    @Test
    void aFlushEmptiesTheCopy() {
        awaitWarm();
        redis.sync().flushdb();

        assertEveryReadIsWhatRedisHoldsOnceSettled();
        assertThat(cache.size()).as("values kept of keys Redis does not hold").isZero();
    }

    /**
     * The tracking connection goes silent without closing, as when a NAT or a load balancer forgets an
     * idle flow: the proxy stops forwarding every connection Redis lists with the tracking flag, both ways,
     * and keeps it open. A write must be served within {@link #SILENT_BOUND} all the same, and the cache
     * must be warm again afterwards, on another connection.
     */
    @Test
    void aWriteIsServedWithinTheBoundWhileTheTrackingConnectionIsSilent() {
        awaitWarm();
        List<String> silent = trackingClientsNow();
        assertThat(silent).as("connections Redis lists as tracking, in CLIENT LIST").isNotEmpty();
        silent.forEach(address -> assertThat(PATH.freeze(address)).as("the proxy's connection from %s", address).isTrue());

        String key = key(7);
        String before = initial().get(key);
        String after = key + "-while-silent";
        redis.sync().set(key, after);
        long written = System.nanoTime();
        while (true) {
            String value = valueIn(joined.get(), key);
            long now = System.nanoTime();
            if (after.equals(value)) {
                System.out.printf("Near cache: tracking connection silent, another writer's change served after %s (bound %s)%n",
                        millis(now - written), millis(SILENT_BOUND.toNanos()));
                break;
            }
            assertThat(value).isEqualTo(before);
            if (now - written > SILENT_BOUND.toNanos()) {
                fail("%s still reads its value from before a write %s ago, with the tracking connection silent", key, SILENT_BOUND);
            }
        }
        awaitWarm();
        assertThat(trackingClientsNow()).as("tracking connections once the silent one was given up").isNotEmpty()
                .doesNotContainAnyElementsOf(silent);
    }

    @Test
    void readsRacingWritesLeaveNothingStale() throws InterruptedException {
        awaitWarm();
        List<String> keys = keys(4);
        for (int round = 0; round < 3; round++) {
            try (BackgroundLoad load = load(keys, 3)) {
                Thread.sleep(1000);
            }
            assertEveryReadIsWhatRedisHoldsOnceSettled();
        }
        awaitWarm();
    }

    /** What Redis holds that the decoder cannot read, or nothing, is answered as such, never kept, and read again each time. */
    @Test
    void missingAndUnreadableValuesAreNeverKept() {
        awaitWarm();
        String unreadable = key(3);
        String missing = key(4);
        redis.sync().set(unreadable, "bad value");
        redis.sync().del(missing);
        awaitRead(() -> String.valueOf(cache.getAll(List.of(unreadable, missing)).values()), "[null, null]", SETTLED);

        try (RedisCommandStats stats = RedisCommandStats.connect(REDIS.url())) {
            for (int i = 0; i < 3; i++) {
                Values<String>[] read = new Values[1];
                Map<String, Long> cost = whileTheCopyAnswers(() -> stats.during(() -> read[0] = cache.getAll(KEYS)));
                assertThat(read[0].unreadable()).containsExactly(unreadable);
                assertThat(read[0].missing()).containsExactly(missing);
                assertThat(cost).as("read %d: one MGET of the two keys the copy cannot hold, and their TTLs", i)
                        .isEqualTo(Map.of("mget", 1L, "pttl", 2L));
                Map<String, Long> joinedCost = whileTheCopyAnswers(() -> stats.during(() -> joined.get()));
                assertThat(joinedCost).as("the joined value is not kept either").isEqualTo(Map.of("mget", 1L, "pttl", 2L));
            }
        }
        assertThat(cache.getIfPresent(unreadable)).isNull();
        assertThat(cache.getIfPresent(missing)).isNull();
    }

    /** Redis reports no write outside the prefixes: such a key is read through every time and never kept. */
    @Test
    void aKeyOutsideThePrefixesIsNeverKept() {
        awaitWarm();
        String other = "other::x";
        redis.sync().set(other, "v1");
        assertThat(cache.getAll(List.of(other)).values()).containsExactly("v1");
        assertThat(cache.getAll(List.of(other)).values()).containsExactly("v1");

        redis.sync().set(other, "v2");

        assertThat(cache.getAll(List.of(other)).values()).as("right after another writer's SET").containsExactly("v2");
        assertThat(cache.getIfPresent(other)).isNull();
        try (RedisCommandStats stats = RedisCommandStats.connect(REDIS.url())) {
            assertThat(whileTheCopyAnswers(() -> stats.during(() -> cache.getAll(List.of(other, key(1)))))).as("the key outside, read; the one inside, kept")
                    .isEqualTo(Map.of("mget", 1L));
        }
        redis.sync().del(other);
    }

    /**
     * A key Redis will expire is never served past its TTL, even when Redis deletes it late: active
     * expiry is turned off (where the server allows DEBUG), so no invalidation comes at the TTL.
     */
    @Test
    void aKeyWithATtlIsNeverServedPastIt() throws InterruptedException {
        awaitWarm();
        String expiring = PREFIX + "expiring";
        boolean activeExpiryOff = debug("SET-ACTIVE-EXPIRE", "0");
        try {
            long received = tracking.invalidations();
            // 2 s: the check that the copy keeps it while its TTL runs needs the reads to come well within the TTL, which a
            // loaded machine's stall of a few hundred ms did not leave a 300 ms TTL (an MGET and a PTTL seen inside it)
            redis.sync().psetex(expiring, 2_000, "soon gone");
            long set = System.nanoTime();
            while (tracking.invalidations() == received) {
                Thread.sleep(1); // the SET's own invalidation, before the read that keeps it
            }
            assertThat(cache.getAll(List.of(expiring)).values()).containsExactly("soon gone");
            try (RedisCommandStats stats = RedisCommandStats.connect(REDIS.url())) {
                assertThat(whileTheCopyAnswers(() -> stats.during(() -> cache.getAll(List.of(expiring))))).as("kept while its TTL runs").isEmpty();
            }
            while (System.nanoTime() - set < Duration.ofMillis(2_020).toNanos()) {
                Thread.sleep(5);
            }
            for (int i = 0; i < 50; i++) {
                assertThat(cache.getAll(List.of(expiring)).values()).as("read %d, past the key's TTL (active expiry off: %s)", i, activeExpiryOff)
                        .containsExactly((String) null);
                Thread.sleep(5);
            }
        }
        finally {
            if (activeExpiryOff) {
                debug("SET-ACTIVE-EXPIRE", "1");
            }
            redis.sync().del(expiring);
        }
    }

    /**
     * Concurrent misses of a key, while Redis is 100 ms away, make exactly one read: the first reader's; the others join it,
     * or, arriving after it, find what it kept. The key is one whose generation stripe the canary's does not share: every
     * heartbeat's canary invalidation raises its stripe's generation, and a read that sees it move reads again, as it should.
     */
    @Test
    void concurrentMissesOfAKeyMakeOneRead() throws Exception {
        awaitWarm();
        int stripe = LocalCopy.stripe(RedisKey.of(tracking.canaryKey()));
        String key = java.util.stream.IntStream.range(11, KEYS.size()).mapToObj(NearCacheStalenessTest::key)
                .filter(candidate -> LocalCopy.stripe(RedisKey.of(candidate)) != stripe).findFirst().orElseThrow();
        int readers = 8;
        PATH.setAddedRoundTrip(Duration.ofMillis(100));
        try (RedisCommandStats stats = RedisCommandStats.connect(REDIS.url())) {
            long received = tracking.invalidations();
            redis.sync().set(key, key + "-shared");
            while (tracking.invalidations() == received) {
                Thread.sleep(1);
            }
            long sharedBefore = cache.statistics().shared();
            java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(readers);
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(readers);
            try {
                Map<String, Long> cost = stats.during(() -> {
                    List<java.util.concurrent.Future<String>> reads = new ArrayList<>();
                    for (int i = 0; i < readers; i++) {
                        reads.add(pool.submit(() -> {
                            start.await();
                            return cache.getAll(List.of(key)).values().get(0);
                        }));
                    }
                    for (java.util.concurrent.Future<String> read : reads) {
                        try {
                            assertThat(read.get()).isEqualTo(key + "-shared");
                        }
                        catch (Exception ex) {
                            throw new AssertionError(ex);
                        }
                    }
                });
                assertThat(cost.getOrDefault("mget", 0L)).as("MGETs of %d concurrent misses of one key", readers).isEqualTo(1L);
                assertThat(cache.statistics().shared() - sharedBefore).as("misses that joined another's read").isPositive();
            }
            finally {
                pool.shutdownNow();
            }
        }
        finally {
            PATH.setAddedRoundTrip(Duration.ZERO);
        }
    }

    /** A stop and a start end with the cache tracking again, and warm. */
    @Test
    void aStopAndAStartEndTracking() {
        awaitWarm();
        tracking.stop();
        assertThat(tracking.isActive()).isFalse();
        assertThat(cache.getIfPresent(key(2))).as("nothing answered from a copy while stopped").isNull();

        tracking.start();

        awaitWarm();
        assertThat(trackingClientsNow()).hasSize(1);
    }

    /** The tracking connection alone is killed while another writer writes and readers read: no read fails, and none is stale after. */
    @Test
    void theTrackingConnectionLostAloneCostsNoRead() throws InterruptedException {
        awaitWarm();
        List<String> keys = keys(8);
        java.util.concurrent.atomic.AtomicLong failures = new java.util.concurrent.atomic.AtomicLong();
        long sessions = tracking.sessions();
        try (BackgroundLoad load = new BackgroundLoad(i -> {
            String key = keys.get(i % keys.size());
            redis.sync().set(key, key + "-alone" + i);
        }, 2, (reader, i) -> {
            try {
                cache.getAll(List.of(keys.get(i % keys.size())));
                joined.get();
            }
            catch (RuntimeException ex) {
                failures.incrementAndGet();
            }
        })) {
            Thread.sleep(300);
            for (String id : TrackingClients.ids(redis.sync().clientList())) {
                redis.sync().clientKill(KillArgs.Builder.id(Long.parseLong(id)));
            }
            Thread.sleep(500);
        }

        assertThat(failures.get()).as("reads that failed while only the tracking connection was lost").isZero();
        assertEveryReadIsWhatRedisHoldsOnceSettled();
        awaitWarm();
        assertThat(tracking.sessions()).as("a new copy once tracking was back").isGreaterThan(sessions);
    }

    @Test
    void aClosedCacheIsForgottenAndReadsNoMore() {
        NearCache<String> closing = tracking.newCache("closing", (key, stored) -> new String(stored, StandardCharsets.UTF_8));
        assertThat(tracking.caches()).contains(closing);

        closing.close();

        assertThat(tracking.caches()).doesNotContain(closing);
        assertThat(closing.size()).isZero();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> closing.getAll(List.of(key(1)))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closing");
    }

    /** The library's meters count what the reads did. */
    @Test
    void theMetersCountHitsMissesAndLoads() {
        awaitWarm();
        io.micrometer.core.instrument.simple.SimpleMeterRegistry registry = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
        new NearCacheMetrics(tracking).bindTo(registry);
        double hits = registry.get("near.cache.gets").tag("cache", "strings").tag("result", "hit").functionCounter().count();
        double loads = registry.get("near.cache.loads").tag("cache", "strings").tag("result", "success").functionCounter().count();

        cache.getAll(List.of(key(5)));
        redis.sync().set("other::m", "m");
        cache.getAll(List.of("other::m"));

        assertThat(registry.get("near.cache.gets").tag("cache", "strings").tag("result", "hit").functionCounter().count()).isEqualTo(hits + 1);
        assertThat(registry.get("near.cache.loads").tag("cache", "strings").tag("result", "success").functionCounter().count())
                .isEqualTo(loads + 1);
        assertThat(registry.get("near.cache.tracking").gauge().value()).isEqualTo(1);
        assertThat(registry.get("near.cache.servers.tracking").gauge().value()).isEqualTo(1);
        assertThat(registry.get("near.cache.bytes").tag("cache", "strings").gauge().value()).isPositive();
        redis.sync().del("other::m");
    }

    /**
     * What {@code measure} found while the copy answered throughout: a count of what warm reads cost
     * assumes it. On a machine loaded enough to make a heartbeat late, or to fail a PING at the 500 ms
     * command time-out, the copy stops answering by design; then the measure is taken again, once the copy
     * is warm, up to five times.
     */
    private <T> T whileTheCopyAnswers(Supplier<T> measure) {
        for (int attempt = 1; ; attempt++) {
            long interruptions = tracking.lates() + tracking.drops();
            boolean answering = tracking.isActive();
            T measured = measure.get();
            if (answering && tracking.isActive() && tracking.lates() + tracking.drops() == interruptions) {
                return measured;
            }
            if (attempt == 5) {
                fail("the copy stopped answering during 5 measures in a row (late heartbeats %d, drops %d)", tracking.lates(), tracking.drops());
            }
            awaitWarm();
        }
    }

    /**
     * Whether the invalidations of every write made before the call have reached the copy. They come on the tracking connection,
     * through the proxy, some time after the writer's reply: a copy found warm before the last of them arrive loses their keys
     * right after, and a count of what the next read costs is wrong (a restore's {@code MSET} of every key, say). A key read into
     * the copy and then written again is invalidated after them, in order, on the same connection.
     */
    private boolean invalidationsDelivered() {
        try {
            if (cache.getAll(List.of(BARRIER)).values().get(0) == null) {
                // gone with a flush or a restart of Redis: back for the next call
                redis.sync().set(BARRIER, "barrier");
                return false;
            }
        }
        catch (DataAccessException ex) {
            return false;
        }
        if (cache.getIfPresent(BARRIER) == null) {
            // not kept: the copy does not answer, or an invalidation of the key came during the read
            return false;
        }
        redis.sync().set(BARRIER, "barrier");
        long deadline = System.nanoTime() + SETTLED.toNanos();
        while (cache.getIfPresent(BARRIER) != null) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            sleep(Duration.ofMillis(1));
        }
        return true;
    }

    /** A DEBUG subcommand on the test's own Redis; false where the server refuses DEBUG (Redis 7 and later by default). */
    private static boolean debug(String... arguments) {
        try {
            redis.sync().dispatch(io.lettuce.core.protocol.CommandType.DEBUG, new io.lettuce.core.output.StatusOutput<>(io.lettuce.core.codec.StringCodec.UTF8),
                    new io.lettuce.core.protocol.CommandArgs<>(io.lettuce.core.codec.StringCodec.UTF8).addValues(arguments));
            return true;
        }
        catch (io.lettuce.core.RedisCommandExecutionException ex) {
            return false;
        }
    }

    /** Another writer changing {@code keys} as fast as it can, and {@code readers} threads reading them, until closed. */
    private BackgroundLoad load(List<String> keys, int readers) {
        return new BackgroundLoad(i -> {
            String key = keys.get(i % keys.size());
            redis.sync().set(key, key + "-load" + i);
        }, readers, (reader, i) -> {
            try {
                if (i % 2 == reader % 2) {
                    cache.getAll(List.of(keys.get(i % keys.size())));
                }
                else {
                    joined.get();
                }
            }
            catch (DataAccessException ex) {
                // Redis away or the connection cut: the application's 503
            }
        });
    }

    /**
     * Once {@link #SETTLED} has passed since the last write, every read, the joined value, each key, each
     * key the copy holds and a subset, is what Redis holds.
     */
    private void assertEveryReadIsWhatRedisHoldsOnceSettled() {
        sleep(SETTLED);
        awaitRead(() -> {
            joined.get();
            return "answered";
        }, "answered", WARM);
        Map<String, String> held = heldInRedis();
        List<String> values = KEYS.stream().map(held::get).toList();
        for (int round = 0; round < 3; round++) {
            assertThat(joined.get()).as("the joined value, round %d", round).isEqualTo(join(values));
            for (String key : KEYS) {
                assertThat(cache.getAll(List.of(key)).values().get(0)).as("%s, round %d", key, round).isEqualTo(held.get(key));
                String kept = cache.getIfPresent(key);
                if (kept != null) {
                    assertThat(kept).as("%s as kept, round %d", key, round).isEqualTo(held.get(key));
                }
            }
            List<String> some = List.of(key(round), key(round + 40), key(round));
            assertThat(cache.getAll(some).values()).as("a subset, round %d", round)
                    .containsExactly(held.get(key(round)), held.get(key(round + 40)), held.get(key(round)));
        }
        assertThat(heldInRedis()).as("what Redis held during the checks (nothing wrote meanwhile)").isEqualTo(held);
    }

    /** Each key's value as Redis holds it, null where it holds none, in order. */
    private static Map<String, String> heldInRedis() {
        List<KeyValue<String, String>> values = redis.sync().mget(KEYS.toArray(String[]::new));
        Map<String, String> held = new LinkedHashMap<>();
        for (int i = 0; i < KEYS.size(); i++) {
            held.put(KEYS.get(i), values.get(i).hasValue() ? values.get(i).getValue() : null);
        }
        return held;
    }

    /** Until {@code read} answers {@code expected} without failing, within {@code within}. */
    private static void awaitRead(Supplier<String> read, String expected, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        String last = null;
        RuntimeException failure = null;
        while (System.nanoTime() < deadline) {
            try {
                last = read.get();
                failure = null;
                if (expected.equals(last)) {
                    return;
                }
            }
            catch (DataAccessException ex) {
                failure = ex;
            }
            sleep(Duration.ofMillis(10));
        }
        if (failure != null) {
            throw new AssertionError("no read within " + within, failure);
        }
        assertThat(last).as("read within %s", within).isEqualTo(expected);
    }

    /** Until a read of every key, and of the joined value, costs Redis nothing, within {@link #WARM}: tracking is active and the copy full. */
    private void awaitWarm() {
        long deadline = System.nanoTime() + WARM.toNanos();
        try (RedisCommandStats stats = RedisCommandStats.connect(REDIS.url())) {
            while (true) {
                boolean delivered = invalidationsDelivered();
                Map<String, Long> cost;
                try {
                    cost = stats.during(() -> {
                        cache.getAll(KEYS);
                        joined.get();
                    });
                }
                catch (DataAccessException ex) {
                    cost = Map.of("failed", 1L);
                }
                if (delivered && cost.isEmpty()) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    fail("a full read still costs %s after %s: the cache does not answer from a local copy (tracking %s, earlier"
                            + " invalidations delivered: %s)", cost, WARM, tracking.servers(), delivered);
                }
                sleep(Duration.ofMillis(20));
            }
        }
    }

    private static Map<String, String> initial() {
        Map<String, String> values = new LinkedHashMap<>();
        KEYS.forEach(key -> values.put(key, key + "-v0"));
        return values;
    }

    /** Every value, or {@code -} where there is none, in order: what the test application derives. */
    static String join(Values<String> values) {
        return join(values.values());
    }

    private static String join(List<String> values) {
        return String.join(",", values.stream().map(value -> value == null ? "-" : value).toList());
    }

    /** {@code key}'s value in a joined value. */
    private static String valueIn(String joinedValues, String key) {
        String value = joinedValues.split(",")[KEYS.indexOf(key)];
        return value.equals("-") ? null : value;
    }

    private static String key(int i) {
        return KEYS.get(Math.floorMod(i, KEYS.size()));
    }

    /** {@code count} keys spread over all of them. */
    private static List<String> keys(int count) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            keys.add(key(i * KEYS.size() / count + 3));
        }
        return keys;
    }

    /** The one definition's percentile ({@link Statistics#percentile}) of nanoseconds. */
    private static long percentile(List<Long> nanos, int percent) {
        return (long) Statistics.percentile(nanos.stream().mapToDouble(Long::doubleValue).toArray(), percent);
    }

    private static String millis(long nanos) {
        return "%.2f ms".formatted(nanos / 1e6);
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** The address (the proxy's end) of each connection Redis lists with the tracking flag. */
    private static List<String> trackingClientsNow() {
        return TrackingClients.addresses(redis.sync().clientList());
    }
}
