package dev.colorbench.redis.nearcache.compared;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import glide.api.GlideClient;
import glide.api.logging.Logger;
import glide.api.models.configuration.ClientSideCache;
import glide.api.models.configuration.GlideClientConfiguration;
import glide.api.models.configuration.NodeAddress;
import glide.api.models.configuration.ProtocolVersion;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static dev.colorbench.redis.nearcache.compared.StalenessBench.SETTLED;
import static dev.colorbench.redis.nearcache.compared.StalenessBench.WAIT;
import static dev.colorbench.redis.nearcache.compared.StalenessBench.millis;
import static dev.colorbench.redis.nearcache.compared.StalenessBench.sleep;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * Valkey GLIDE's client-side cache (the Java client {@code io.valkey:valkey-glide} 2.5.2-rc1, its first release with
 * {@code serverAssisted}, a release candidate; the linux-x86_64 native library) against the cases the near cache faces,
 * each test asserting what it does today. It is used as its Javadoc shows it: a {@code GlideClient} with RESP3 and a
 * {@code ClientSideCache} with {@code serverAssisted(true)}, so that each connection sends
 * {@code CLIENT TRACKING ON BCAST}, and an entry TTL of 10 minutes (GLIDE requires one; 0 means none), the near
 * cache's own {@code time-to-live}. The cache itself is in GLIDE's Rust core: a reply of {@code GET}, {@code HGETALL} or
 * {@code SMEMBERS} is kept unless it is nil, and an invalidation removes its keys; one without keys empties the cache.
 *
 * <p>What it does, as pinned here: another writer's change is served within milliseconds; a flush empties the cache.
 * A read racing an invalidation keeps the old value until the key is written again or the entry's TTL. A write that
 * lands while it reconnects after a kill, and a key lost by a restart, are served stale the same way: tracking is sent
 * again on the new connection, the cache is not emptied. A frozen connection goes unnoticed. <b>A failing test here
 * means GLIDE changed</b>: check near-cache-library/README.md's comparison table. Where its native library does not
 * load (another platform than linux-x86_64), every case is skipped, saying so.
 */
class GlideClientSideCacheTest {

    /** Every entry's TTL: the near cache's own {@code time-to-live}, its safety net. */
    private static final Duration ENTRY_TTL = Duration.ofMinutes(10);

    private static final Pattern GET_CALLS = Pattern.compile("^cmdstat_get:calls=(\\d+)", Pattern.MULTILINE);

    private static StalenessBench bench;

    private GlideClient client;

    @BeforeAll
    static void startRedis() {
        bench = StalenessBench.start("glide::");
        System.out.printf("Valkey GLIDE client-side cache: the cases run on %s%n", bench.server());
    }

    @AfterAll
    static void stopRedis() {
        bench.close();
    }

    @AfterEach
    void closeTheClient() throws ExecutionException {
        if (client != null) {
            client.close();
        }
    }

    /** A client through the path, with a server-assisted cache; every case is skipped where GLIDE's native library does not load. */
    private GlideClient open() {
        ClientSideCache cache = ClientSideCache.builder().maxCacheKb(16 * 1024).entryTtlMs(ENTRY_TTL.toMillis()).serverAssisted(true)
                .enableMetrics(true).build();
        GlideClientConfiguration configuration = GlideClientConfiguration.builder()
                .address(NodeAddress.builder().host(bench.host()).port(bench.port()).build()).protocol(ProtocolVersion.RESP3)
                .requestTimeout(1000).clientSideCache(cache).build();
        try {
            // its reconnections are WARN lines on the console, which Maven prints as [ERROR]
            Logger.setLoggerConfig(Logger.Level.ERROR);
            client = GlideClient.createClient(configuration).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (LinkageError ex) {
            abort("Valkey GLIDE's native library does not load on " + System.getProperty("os.name") + " " + System.getProperty("os.arch")
                    + " (the pom brings only linux-x86_64's): " + ex);
        }
        catch (Exception ex) {
            throw new IllegalStateException("GLIDE did not connect to " + bench.server(), ex);
        }
        return client;
    }

    private String read(String key) {
        return join(client.get(key));
    }

    private static <T> T join(CompletableFuture<T> reply) {
        try {
            return reply.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
        catch (ExecutionException | java.util.concurrent.TimeoutException ex) {
            throw new IllegalStateException(ex.getCause() != null ? ex.getCause() : ex);
        }
    }

    private long entries() {
        return join(client.getCacheEntryCount());
    }

    @Test
    void whatItCachesAndHowRedisTracksIt() {
        open();
        List<String> keys = bench.keys("cached", 4);
        bench.write(keys, "v0");
        String hash = bench.keys("cached-hash", 1).get(0);
        bench.redis().hset(hash, Map.of("field", "value"));
        String missing = bench.keys("missing", 1).get(0);
        bench.warm(keys, this::read);
        assertThat(join(client.hgetall(hash))).containsEntry("field", "value");

        Map<String, Long> warm = bench.commandsDuring(() -> {
            keys.forEach(this::read);
            assertThat(join(client.hgetall(hash))).containsEntry("field", "value");
        });
        Map<String, Long> others = bench.commandsDuring(() -> {
            assertThat(read(missing)).isNull();
            assertThat(read(missing)).isNull();
            assertThat(join(client.mget(keys.toArray(String[]::new)))).hasSize(4);
            assertThat(join(client.mget(keys.toArray(String[]::new)))).hasSize(4);
        });

        System.out.printf("Valkey GLIDE client-side cache: warm GET and HGETALL cost %s; two GETs of a missing key and two MGETs cost %s; %d entries%n",
                warm, others, entries());
        assertThat(warm).as("Redis commands of 4 warm GETs and a warm HGETALL").isEmpty();
        assertThat(others).as("two GETs of a missing key, two MGETs").containsEntry("get", 2L).containsEntry("mget", 2L);
        assertThat(entries()).as("entries: the 4 GETs and the HGETALL").isEqualTo(5);
        assertThat(bench.trackingClients()).as("tracking connections").isEqualTo(1);
        assertThat(bench.info("stats", "tracking_total_prefixes")).as("prefixes Redis tracks (broadcast, every key)").isEqualTo(1);
        assertThat(bench.info("stats", "tracking_total_keys")).as("keys Redis tracks (none in broadcast mode)").isZero();
    }

    /** Case 1: another writer {@code SET}s keys 100 times; each change is served within {@link StalenessBench#SETTLED}. */
    @Test
    void anotherWritersChangeIsServedWithinASecond() {
        open();
        bench.assertEachChangeServedWithinASecond("Valkey GLIDE client-side cache", this::read);
    }

    /**
     * Case 2, forced: a {@code GET}'s reply and another writer's invalidation of its key reach GLIDE back to back, so
     * that its connection handles the invalidation (nothing to remove yet) before the reading task puts the reply in
     * the cache. The path is made 400 ms long for the {@code GET}; as soon as Redis has executed it (its
     * {@code cmdstat_get} counted), the path is made short again and the writer sets v1: the invalidation then follows
     * the reply, which the path still holds, at once. Tried up to ten times, on a new key each; the first key left
     * stale is then watched: v0 kept while Redis holds v1, until the next write of the key, which broadcast tracking
     * reports.
     */
    @Test
    void aReadRacingAnInvalidationKeepsTheOldValueUntilTheNextWrite() throws Exception {
        open();
        String stale = null;
        int attempts = 0;
        while (stale == null && attempts < 10) {
            String key = bench.keys("race", 10).get(attempts++);
            bench.redis().set(key, "v0");
            long gets = getCalls();
            bench.pathRoundTrip(Duration.ofMillis(400));
            CompletableFuture<String> held;
            try {
                held = client.get(key);
                long deadline = System.nanoTime() + WAIT.toNanos();
                while (getCalls() == gets) {
                    if (System.nanoTime() > deadline) {
                        fail("Redis did not execute the GET of %s within %s", key, WAIT);
                    }
                }
            }
            finally {
                bench.pathRoundTrip(Duration.ZERO);
            }
            bench.redis().set(key, "v1");
            assertThat(join(held)).as("the GET that raced the write").isEqualTo("v0");
            sleep(Duration.ofMillis(100));
            if ("v0".equals(read(key))) {
                stale = key;
            }
        }
        System.out.printf("Valkey GLIDE client-side cache, case 2 forced: %s%n",
                stale == null ? "no key left stale in " + attempts + " attempts" : "a key left stale at attempt " + attempts);
        assertThat(stale).as("a key left stale by a GET whose reply and invalidation arrived together, in 10 attempts").isNotNull();

        sleep(SETTLED);
        assertThat(read(stale)).as("answered %s later, while Redis holds v1", SETTLED).isEqualTo("v0");
        bench.redis().set(stale, "v2");
        String key = stale;
        Duration served = bench.watch(key, "v0", "v2", SETTLED, this::read);
        assertThat(served).as("the next write of the key served within %s", SETTLED).isNotNull();
    }

    /** Case 2, unforced: a writer and two readers race for a second; {@link StalenessBench#SETTLED} later, the keys left stale, if any, are printed. */
    @Test
    void readsRacingWritesMayLeaveKeysStaleUntilTheirNextWrite() throws InterruptedException {
        open();
        List<String> keys = bench.keys("racing", 8);
        bench.write(keys, "v0");
        bench.warm(keys, this::read);

        StalenessBench.Race race = bench.racingReaders(keys, 2, Duration.ofSeconds(1), this::read);

        System.out.printf("Valkey GLIDE client-side cache, case 2 unforced: %d writes and %d reads racing for 1 s (%d failed); %s after, %d of %d keys stale%n",
                race.writes(), race.reads(), race.failures(), millis(SETTLED), race.settled().stale().size(), keys.size());
        for (String key : race.settled().stale()) {
            bench.redis().set(key, key + "-after");
            assertThat(bench.watch(key, race.settled().answered().get(key), key + "-after", SETTLED, this::read))
                    .as("%s, stale, served after its next write", key).isNotNull();
        }
    }

    /**
     * Case 3: the connection killed while another writer writes, then every key written while it reconnects: each is
     * stale; tracking is back on the new connection, so a later write is served, and the others stay stale.
     */
    @Test
    void afterTheConnectionIsKilledTheWritesMissedMeanwhileAreNeverServed() throws InterruptedException {
        open();
        List<String> keys = bench.keys("killed", 8);
        bench.write(keys, "v0");

        StalenessBench.Reads settled = bench.killedWhileAnotherWriterWrites(keys, this::read);

        System.out.printf("Valkey GLIDE client-side cache, case 3 (killed): %s after the last writes, %s; %d entries%n", millis(SETTLED), settled,
                entries());
        assertThat(settled.failed()).as("reads that failed").isEmpty();
        assertThat(settled.stale()).as("keys stale %s after the writes stopped", SETTLED).containsExactlyElementsOf(keys);
        assertThat(bench.trackingClients()).as("tracking connections once GLIDE reconnected").isEqualTo(1);
        String key = keys.get(0);
        bench.redis().set(key, "after-reconnect");
        assertThat(bench.watch(key, settled.answered().get(key), "after-reconnect", SETTLED, this::read)).as("a write after the reconnect served")
                .isNotNull();
        sleep(SETTLED);
        assertThat(bench.readAll(keys, this::read).stale()).as("keys stale a second later still").containsExactlyElementsOf(keys.subList(1, keys.size()));
    }

    /** Case 3: Redis restarted empty, half the keys written again, half left missing: the missing ones are answered as before. */
    @Test
    void afterRedisRestartsEmptyTheKeysItLostAreStillAnswered() {
        open();
        List<String> keys = bench.keys("restarted", 8);
        bench.write(keys, "v0");

        StalenessBench.Reads settled = bench.restartedEmpty(keys, this::read);

        System.out.printf("Valkey GLIDE client-side cache, case 3 (restart): %s after the writes, %s%n", millis(SETTLED), settled);
        assertThat(settled.failed()).as("reads that failed").isEmpty();
        List<String> lost = keys.subList(keys.size() / 2, keys.size());
        assertThat(settled.stale()).as("keys stale %s after the restart", SETTLED).containsAll(lost);
        lost.forEach(key -> assertThat(settled.answered().get(key)).as("%s, which Redis lost", key).isEqualTo(key + "-v0"));
        assertThat(bench.trackingClients()).as("tracking connections once GLIDE reconnected").isEqualTo(1);
    }

    /** Case 4: another writer's {@code FLUSHDB}: the invalidation without keys empties the cache. */
    @Test
    void aFlushEmptiesTheCache() {
        open();
        List<String> keys = bench.keys("flushed", 8);
        bench.write(keys, "v0");
        bench.warm(keys, this::read);
        assertThat(entries()).isEqualTo(keys.size());

        bench.redis().flushdb();
        // the invalidation comes on its own time: wait for the cache to empty, within SETTLED, as every case allows
        long flushed = System.nanoTime();
        while (entries() > 0 && System.nanoTime() - flushed < StalenessBench.SETTLED.toNanos()) {
            sleep(Duration.ofMillis(10));
        }

        long entries = entries();
        StalenessBench.Reads reads = bench.readAll(keys, this::read);
        System.out.printf("Valkey GLIDE client-side cache, case 4: %.0f ms after FLUSHDB, %d entries; %s%n", (System.nanoTime() - flushed) / 1e6,
                entries, reads);
        assertThat(entries).as("entries after the flush").isZero();
        assertThat(reads.right()).as("every read once the cache emptied: %s", reads).isTrue();
    }

    /** Case 5: the connection frozen in the path, open and silent; another writer's change is not served for {@link StalenessBench#WATCH}. */
    @Test
    void aWriteIsNotServedWhileTheConnectionIsFrozen() {
        open();
        bench.assertAChangeIsNotServedWhileFrozen("Valkey GLIDE client-side cache", this::read);
    }

    /** How many {@code GET}s Redis has executed. */
    private static long getCalls() {
        Matcher calls = GET_CALLS.matcher(bench.redis().info("commandstats"));
        return calls.find() ? Long.parseLong(calls.group(1)) : 0;
    }
}
