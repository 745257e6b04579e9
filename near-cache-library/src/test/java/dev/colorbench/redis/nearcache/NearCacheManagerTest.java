package dev.colorbench.redis.nearcache;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.colorbench.testkit.DelayProxy;
import dev.colorbench.testkit.EmbeddedRedis;
import dev.colorbench.testkit.RedisCommandStats;
import dev.colorbench.testkit.statistics.Statistics;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.CachePut;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.support.NullValue;
import org.springframework.context.annotation.Bean;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.util.ByteUtils;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The near cache behind {@code @Cacheable}, on a real Redis, through a small application: a service whose
 * {@code @Cacheable}, {@code @CachePut} and {@code @CacheEvict} methods use the cache {@code items}, with
 * Spring Boot's cache settings ({@code spring.cache.redis.time-to-live}) and its default Java serialization.
 * Another writer is a plain connection of the test's own, writing in {@code RedisCache}'s format:
 *
 * <ul>
 * <li>warm reads cost Redis no command;</li>
 * <li>another writer's change is served within {@link #SETTLED} of its reply, and nothing but the value
 * from before until then;</li>
 * <li>{@code @CachePut} and {@code @CacheEvict} write through, and the next read shows them at once, even
 * with the tracking connection frozen, so that no invalidation arrives: the writer drops its own copy;</li>
 * <li>a clear deletes by SCAN, never KEYS;</li>
 * <li>what a stock {@link RedisCacheManager} wrote, the near cache manager reads, and the reverse, the
 * bytes the same;</li>
 * <li>{@link NearRedisCache#getAll} is one MGET of just the keys the copy lacks (Redis's MONITOR shows
 * its keys).</li>
 * </ul>
 */
@SpringBootTest(classes = NearCacheManagerTest.Application.class, properties = {
        "redis.near-cache.prefixes=items::",
        "redis.near-cache.cache-manager.enabled=true",
        "spring.cache.redis.time-to-live=10m",
        "spring.data.redis.timeout=1s", // a frozen tracking connection is given up 1 to 1.25 s after the freeze
        "spring.data.redis.connect-timeout=500ms" })
@DirtiesContext
class NearCacheManagerTest {

    /** How long after another writer's {@code SET} (its reply) a read may still show the value from before. */
    static final Duration SETTLED = Duration.ofSeconds(1);

    private static final Duration WARM = Duration.ofSeconds(5);

    /** How long no invalidation may come after a warm read for the copy to count as settled. */
    private static final Duration QUIET = Duration.ofMillis(50);

    private static final EmbeddedRedis REDIS = EmbeddedRedis.start();

    /** The application's path to Redis: adds nothing, and can freeze the tracking connection. */
    private static final DelayProxy PATH = DelayProxy.start("127.0.0.1", URI.create(REDIS.url()).getPort(), Duration.ZERO);

    private static RedisClient redisClient;

    /** Another writer: a plain connection, writing what RedisCache would. */
    private static StatefulRedisConnection<byte[], byte[]> redis;

    @Autowired
    private ItemService items;

    @Autowired
    private CacheManager cacheManager;

    @Autowired
    private NearCacheTracking tracking;

    @Autowired
    private RedisConnectionFactory connectionFactory;

    /** What the service caches: Java serialization, Spring Boot's default. */
    record Item(String name, int version) implements Serializable {
    }

    /** A service over a map, the "database", counting its loads. Read its fields through its methods: the bean is a proxy. */
    static class ItemService {

        private final Map<String, Item> source = new ConcurrentHashMap<>();

        private final AtomicInteger loads = new AtomicInteger();

        /** What the "database" holds, without the cache. */
        public void hold(String id, Item item) {
            source.put(id, item);
        }

        public int loads() {
            return loads.get();
        }

        @Cacheable("items")
        public Item find(String id) {
            loads.incrementAndGet();
            return source.get(id);
        }

        /** The same cache, loaded once per key at a time in the instance. */
        @Cacheable(cacheNames = "items", sync = true)
        public Item findOnce(String id) {
            loads.incrementAndGet();
            sleep(Duration.ofMillis(50)); // long enough for the other readers to miss too
            return source.get(id);
        }

        /** The same cache, read asynchronously: Spring's cache interceptor reads it with {@code Cache.retrieve}. */
        @Cacheable("items")
        public CompletableFuture<Item> findLater(String id) {
            loads.incrementAndGet();
            return CompletableFuture.completedFuture(source.get(id));
        }

        /** A value of a type callers can change, in the same cache. */
        @Cacheable("items")
        public ArrayList<String> tags(String id) {
            loads.incrementAndGet();
            return new ArrayList<>(List.of("red", "green"));
        }

        @CachePut(cacheNames = "items", key = "#id")
        public Item save(String id, Item item) {
            source.put(id, item);
            return item;
        }

        @CacheEvict("items")
        public void delete(String id) {
            source.remove(id);
        }

        @CacheEvict(cacheNames = "items", allEntries = true)
        public void deleteAll() {
            source.clear();
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableCaching
    static class Application {

        @Bean
        ItemService itemService() {
            return new ItemService();
        }
    }

    @DynamicPropertySource
    static void redisUrl(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.url", () -> "redis://127.0.0.1:" + PATH.port());
    }

    @BeforeAll
    static void connect() {
        redisClient = RedisClient.create(REDIS.url());
        redis = redisClient.connect(ByteArrayCodec.INSTANCE);
    }

    @AfterAll
    static void stopRedis() {
        ProxiedRedis.stop(redis, redisClient, PATH, REDIS);
    }

    @Test
    void theCachesAreNearCachesNamedAfterThem() {
        assertThat(cacheManager).isInstanceOf(NearCacheManager.class);
        assertThat(cacheManager.getCache("items")).isInstanceOf(NearRedisCache.class);
        assertThat(tracking.caches()).extracting(NearCache::name).contains("items");
    }

    @Test
    void warmReadsCostRedisNothing() {
        String id = fresh("warm");
        items.hold(id, new Item(id, 1));
        awaitWarm(id);
        int loads = items.loads();
        try (RedisCommandStats stats = RedisCommandStats.connect(REDIS.url())) {
            RedisCommandStats.Usage usage = stats.usage(() -> {
                for (int i = 0; i < 20; i++) {
                    assertThat(items.find(id)).isEqualTo(new Item(id, 1));
                }
            });

            assertThat(usage.commands()).as("Redis commands of 20 warm @Cacheable reads").isEmpty();
            assertThat(usage.roundTrips()).as("round trips of 20 warm reads").isIn(0L, null);
        }
        assertThat(items.loads()).as("loads of the service").isEqualTo(loads);
    }

    /**
     * By default a hit shares a value whose type cannot change (a record): the same object each time, decoded once. A value
     * a caller can change (a list) is decoded on each hit, so one caller's change never reaches the next; warm, neither
     * sends a command.
     */
    @Test
    void aHitSharesARecordAndGivesEachCallerItsOwnCopyOfAMutableValue() {
        String id = fresh("shared");
        items.hold(id, new Item(id, 1));
        String listed = fresh("copied");
        awaitWarm(() -> {
            items.find(id);
            items.tags(listed);
        });
        try (RedisCommandStats stats = RedisCommandStats.connect(REDIS.url())) {
            Map<String, Long> cost = stats.during(() -> {
                assertThat(items.find(id)).isSameAs(items.find(id));

                ArrayList<String> first = items.tags(listed);
                first.add("changed by a caller");
                ArrayList<String> second = items.tags(listed);
                assertThat(second).as("the next hit, after a caller changed what the first returned")
                        .containsExactly("red", "green").isNotSameAs(first);
            });

            assertThat(cost).as("Redis commands of the warm hits").isEmpty();
        }
    }

    /** One write at a time, in RedisCache's format by a plain connection: each served within {@link #SETTLED}, nothing but the value before until then. */
    @Test
    void anotherWritersChangeIsServedWithinTheBound() {
        String id = fresh("other");
        items.hold(id, new Item(id, 0));
        awaitWarm(id);
        int loads = items.loads();
        List<Long> served = new ArrayList<>();
        for (int version = 1; version <= 20; version++) {
            Item before = new Item(id, version - 1);
            Item after = new Item(id, version);
            redis.sync().set(key(id), bytes(after));
            long written = System.nanoTime();
            while (true) {
                Item read = items.find(id);
                long now = System.nanoTime();
                if (after.equals(read)) {
                    served.add(now - written);
                    break;
                }
                assertThat(read).as("%s while it is changed: the value before or after", id).isEqualTo(before);
                if (now - written > SETTLED.toNanos()) {
                    fail("%s still reads its value from before a write %s ago", id, SETTLED);
                }
            }
        }
        served.sort(null);
        System.out.printf("Near cache manager: another writer's change served after the SET reply p50 %.2f ms, max %.2f ms, over %d writes%n",
                Statistics.median(served.stream().mapToDouble(Long::doubleValue).toArray()) / 1e6, served.get(served.size() - 1) / 1e6,
                served.size());
        assertThat(items.loads()).as("loads of the service: Redis always held the key").isEqualTo(loads);
    }

    @Test
    void cachePutAndCacheEvictWriteThroughAndTheNextReadShowsThem() {
        String id = fresh("put");
        items.hold(id, new Item(id, 1));
        awaitWarm(id);
        int loads = items.loads();

        items.save(id, new Item(id, 2));

        assertThat(items.find(id)).isEqualTo(new Item(id, 2));
        assertThat(read(redis.sync().get(key(id)))).as("what Redis holds").isEqualTo(new Item(id, 2));
        assertThat(redis.sync().pttl(key(id))).as("the TTL of spring.cache.redis.time-to-live, in ms").isBetween(590_000L, 600_000L);
        assertThat(items.loads()).isEqualTo(loads);

        items.delete(id);

        assertThat(redis.sync().exists(key(id))).as("keys left in Redis").isZero();
        assertThat(items.find(id)).isNull();
        assertThat(items.loads()).as("loads: the evicted key read again").isEqualTo(loads + 1);
        assertThat(read(redis.sync().get(key(id)))).as("a null, cached as RedisCache caches it").isEqualTo(NullValue.INSTANCE);
        awaitWarm(id);
        assertThat(items.find(id)).isNull();
        assertThat(items.loads()).as("loads: the null is a hit").isEqualTo(loads + 1);
    }

    /**
     * With the tracking connection frozen, no invalidation arrives, and the copy still answers for a
     * second: a put, an evict and a clear are each seen by the next read all the same. Without the
     * writer dropping its own copy of the key, the read would be the value from before.
     */
    @Test
    void aWriteIsReadBackAtOnceBeforeItsOwnInvalidationArrives() {
        String id = fresh("frozen");
        String other = fresh("frozen-other");
        items.hold(id, new Item(id, 1));
        items.hold(other, new Item(other, 1));
        awaitWarm(id, other);
        NearRedisCache cache = nearCache();
        int loads = items.loads();
        long sessions = tracking.sessions();
        List<String> frozen = trackingClientsNow();
        assertThat(frozen).as("connections Redis lists as tracking").isNotEmpty();
        frozen.forEach(address -> assertThat(PATH.freeze(address)).as("the proxy's connection from %s", address).isTrue());
        long frozenAt = System.nanoTime();

        items.save(id, new Item(id, 2));
        Item afterPut = items.find(id);
        items.delete(id);
        Item afterEvict = items.find(id);
        assertThat(cache.nearCache().getIfPresent(keyString(other))).as("another key, in the copy before the clear").isNotNull();
        Item otherBeforeClear = items.find(other);
        items.deleteAll();
        Item otherAfterClear = items.find(other);
        boolean answering = tracking.isActive();
        long took = System.nanoTime() - frozenAt;

        assertThat(afterPut).as("the read after @CachePut").isEqualTo(new Item(id, 2));
        assertThat(afterEvict).as("the read after @CacheEvict: loaded, the source holds nothing").isNull();
        assertThat(otherBeforeClear).isEqualTo(new Item(other, 1));
        assertThat(otherAfterClear).as("the read after a clear: loaded, the source holds nothing").isNull();
        assertThat(items.loads()).as("loads: after the evict and after the clear").isEqualTo(loads + 2);
        assertThat(answering).as("the copy still answered (%.0f ms after the freeze): else the reads proved nothing", took / 1e6).isTrue();

        // the frozen connection given up, a new one tracks: else the next case would run on a silent connection
        long deadline = System.nanoTime() + WARM.toNanos();
        while (tracking.sessions() == sessions) {
            assertThat(System.nanoTime()).as("a new tracking session within %s", WARM).isLessThan(deadline);
            sleep(Duration.ofMillis(10));
        }
        awaitWarm(id, other);
        assertThat(trackingClientsNow()).doesNotContainAnyElementsOf(frozen);
    }

    @Test
    void aClearDeletesByScanNeverKeys() {
        String id = fresh("clear");
        items.hold(id, new Item(id, 1));
        awaitWarm(id);
        try (RedisCommandStats stats = RedisCommandStats.connect(REDIS.url())) {
            Map<String, Long> cost = stats.during(items::deleteAll);

            assertThat(cost).containsKeys("scan", "del").doesNotContainKey("keys");
        }
        assertThat(redis.sync().exists(key(id))).isZero();
    }

    /** Both ways, with the same configuration: what one manager wrote, the other reads, and the bytes in Redis are the same. */
    @Test
    void whatAStockRedisCacheManagerWroteTheNearOneReadsAndTheReverse() throws InterruptedException {
        RedisCacheConfiguration configuration = nearCache().getCacheConfiguration();
        RedisCacheManager stockManager = RedisCacheManager.builder(connectionFactory).cacheDefaults(configuration).build();
        stockManager.afterPropertiesSet();
        Cache stock = stockManager.getCache("items");
        Cache near = cacheManager.getCache("items");
        String fromStock = fresh("stock");
        String nullFromStock = fresh("stock-null");
        String fromNear = fresh("near");
        String nullFromNear = fresh("near-null");
        int loads = items.loads();

        stock.put(fromStock, new Item(fromStock, 7));
        stock.put(nullFromStock, null);
        awaitInRedis(fromStock, nullFromStock); // the stock writer's writes are asynchronous on Lettuce
        near.put(fromNear, new Item(fromNear, 7));
        near.put(nullFromNear, null);

        assertThat(near.get(fromStock).get()).isEqualTo(new Item(fromStock, 7));
        assertThat(items.find(fromStock)).as("through @Cacheable").isEqualTo(new Item(fromStock, 7));
        assertThat(near.get(nullFromStock)).as("a cached null").isNotNull().extracting(Cache.ValueWrapper::get).isNull();
        assertThat(stock.get(fromNear).get()).isEqualTo(new Item(fromNear, 7));
        assertThat(stock.get(nullFromNear)).as("a cached null").isNotNull().extracting(Cache.ValueWrapper::get).isNull();
        assertThat(items.loads()).isEqualTo(loads);

        String sameFromStock = fresh("same-stock");
        String sameFromNear = fresh("same-near");
        stock.put(sameFromStock, new Item("same", 1));
        near.put(sameFromNear, new Item("same", 1));
        awaitInRedis(sameFromStock);
        assertThat(redis.sync().get(key(sameFromNear))).as("the bytes each wrote for one value").isEqualTo(redis.sync().get(key(sameFromStock)));
        assertThat(redis.sync().get(key(nullFromNear))).as("the bytes each wrote for a null").isEqualTo(redis.sync().get(key(nullFromStock)));
        assertThat(redis.sync().pttl(key(sameFromNear))).as("the TTL each gave").isPositive();
        assertThat(redis.sync().pttl(key(sameFromStock))).isPositive();
    }

    /** Three keys in the copy, one only in Redis, one nowhere: one MGET of the two the copy lacks. */
    @Test
    void getAllIsOneMgetOfJustTheKeysTheCopyLacks() {
        List<String> held = List.of(fresh("all-1"), fresh("all-2"), fresh("all-3"));
        held.forEach(id -> items.hold(id, new Item(id, 1)));
        awaitWarm(held.toArray(String[]::new));
        String inRedis = fresh("all-redis");
        String nowhere = fresh("all-none");
        NearRedisCache cache = nearCache();
        long received = tracking.invalidations();
        redis.sync().set(key(inRedis), bytes(new Item(inRedis, 5)));
        // its own invalidation handled first: arriving during the read, it would refuse to keep the value read
        awaitInvalidationAfter(received);
        List<Cache.ValueWrapper> values;
        List<List<String>> mgets;

        try (RedisCommandStats stats = RedisCommandStats.connect(REDIS.url()); Monitor monitor = Monitor.start(REDIS.url())) {
            AtomicReference<List<Cache.ValueWrapper>> read = new AtomicReference<>();
            RedisCommandStats.Usage usage = stats.usage(() -> read.set(cache.getAll(List.of(held.get(0), inRedis, held.get(1), nowhere, held.get(2)))));
            values = read.get();
            mgets = monitor.until("mget", redis);

            assertThat(usage.commands()).as("commands of the read: the MGET, and a PTTL of each key it read").isEqualTo(Map.of("mget", 1L, "pttl", 2L));
        }

        assertThat(mgets).as("the MGETs Redis executed").containsExactly(List.of("mget", keyString(inRedis), keyString(nowhere)));
        assertThat(values).hasSize(5);
        assertThat(values.get(0).get()).isEqualTo(new Item(held.get(0), 1));
        assertThat(values.get(1).get()).isEqualTo(new Item(inRedis, 5));
        assertThat(values.get(2).get()).isEqualTo(new Item(held.get(1), 1));
        assertThat(values.get(3)).as("a key Redis holds nothing for").isNull();
        assertThat(values.get(4).get()).isEqualTo(new Item(held.get(2), 1));
        try (RedisCommandStats stats = RedisCommandStats.connect(REDIS.url())) {
            assertThat(stats.during(() -> cache.getAll(List.of(held.get(0), inRedis, held.get(2))))).as("the same keys once more").isEmpty();
        }
    }

    /** Eight concurrent misses of a {@code sync = true} method: one load; the others read what it put. */
    @Test
    void aSynchronizedCacheableLoadsAKeyOnce() throws Exception {
        String id = fresh("sync");
        items.hold(id, new Item(id, 1));
        int loads = items.loads();
        ExecutorService readers = Executors.newFixedThreadPool(8);
        try {
            CyclicBarrier start = new CyclicBarrier(8);
            List<Future<Item>> reads = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                reads.add(readers.submit(() -> {
                    start.await();
                    return items.findOnce(id);
                }));
            }
            for (Future<Item> read : reads) {
                assertThat(read.get()).isEqualTo(new Item(id, 1));
            }
        }
        finally {
            readers.shutdownNow();
        }
        assertThat(items.loads() - loads).as("loads of 8 concurrent misses").isEqualTo(1);
    }

    /**
     * A slow load holds up the callers of its own key only. The other key is one that shared the slow key's lock when loads
     * took one of 64 locks by the key's hash: there it waited for the slow load.
     */
    @Test
    void aSlowLoadHoldsUpOnlyItsOwnKey() throws Exception {
        NearRedisCache cache = nearCache();
        String slow = fresh("slow");
        String other = fresh("beside");
        while (Math.floorMod(keyString(other).hashCode(), 64) != Math.floorMod(keyString(slow).hashCode(), 64)) {
            other = fresh("beside");
        }
        String beside = other;
        java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        ExecutorService loaders = Executors.newFixedThreadPool(2);
        try {
            Future<Item> held = loaders.submit(() -> cache.get(slow, () -> {
                started.countDown();
                release.await();
                return new Item(slow, 1);
            }));
            assertThat(started.await(5, java.util.concurrent.TimeUnit.SECONDS)).as("the slow load started").isTrue();
            Future<Item> besideLoad = loaders.submit(() -> cache.get(beside, () -> new Item(beside, 1)));

            assertThat(besideLoad.get(5, java.util.concurrent.TimeUnit.SECONDS)).as("another key's load while the slow one runs")
                    .isEqualTo(new Item(beside, 1));
            assertThat(held).as("the slow load, still held").isNotDone();
            release.countDown();
            assertThat(held.get(5, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(new Item(slow, 1));
        }
        finally {
            release.countDown();
            loaders.shutdownNow();
        }
    }

    /**
     * A CompletableFuture-returning {@code @Cacheable} reads through the copy too: a miss keeps what it read, and warm reads
     * cost Redis nothing. Before, each of its reads was a GET of Redis.
     */
    @Test
    void warmAsynchronousReadsCostRedisNothing() {
        String id = fresh("async-warm");
        items.hold(id, new Item(id, 1));
        awaitWarm(() -> items.findLater(id).join());
        int loads = items.loads();
        try (RedisCommandStats stats = RedisCommandStats.connect(REDIS.url())) {
            RedisCommandStats.Usage usage = stats.usage(() -> {
                for (int i = 0; i < 20; i++) {
                    assertThat(items.findLater(id).join()).isEqualTo(new Item(id, 1));
                }
            });

            assertThat(usage.commands()).as("Redis commands of 20 warm asynchronous @Cacheable reads").isEmpty();
        }
        assertThat(items.loads()).as("loads of the service").isEqualTo(loads);
    }

    /** The asynchronous reads of a CompletableFuture-returning {@code @Cacheable}: a put is read back, and a loaded value is stored and read back. */
    @Test
    void theAsynchronousReadsSeeThePuts() {
        NearRedisCache cache = nearCache();
        String put = fresh("async-put");
        String loaded = fresh("async-loaded");

        cache.put(put, new Item(put, 1));
        Cache.ValueWrapper read = cache.retrieve(put).join();
        Item stored = cache.retrieve(loaded, () -> CompletableFuture.completedFuture(new Item(loaded, 2))).join();

        assertThat(read.get()).isEqualTo(new Item(put, 1));
        assertThat(stored).isEqualTo(new Item(loaded, 2));
        assertThat(cache.get(loaded).get()).isEqualTo(new Item(loaded, 2));
        assertThat(read(redis.sync().get(key(loaded)))).isEqualTo(new Item(loaded, 2));
    }

    private NearRedisCache nearCache() {
        return ((NearCacheManager) cacheManager).getNearCache("items");
    }

    /**
     * Until a read of each id through {@code @Cacheable} costs Redis nothing, and no invalidation came
     * during it and {@link #QUIET} after it, within {@link #WARM}: tracking is active, the copy holds them,
     * and no invalidation of an earlier write is still on its way to remove one.
     */
    private void awaitWarm(String... ids) {
        awaitWarm(() -> {
            for (String id : ids) {
                items.find(id);
            }
        });
    }

    /** As {@link #awaitWarm(String...)}, for what {@code reads} reads. */
    private void awaitWarm(Runnable reads) {
        long deadline = System.nanoTime() + WARM.toNanos();
        try (RedisCommandStats stats = RedisCommandStats.connect(REDIS.url())) {
            while (true) {
                long invalidations = tracking.invalidations();
                Map<String, Long> cost;
                try {
                    cost = stats.during(reads);
                }
                catch (DataAccessException ex) {
                    cost = Map.of("failed", 1L);
                }
                sleep(QUIET);
                if (cost.isEmpty() && tracking.invalidations() == invalidations) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    fail("a read still costs %s after %s (tracking %s)", cost, WARM, tracking.servers());
                }
            }
        }
    }

    /** Until the tracking has handled an invalidation since it counted {@code received}, within {@link #SETTLED}. */
    private void awaitInvalidationAfter(long received) {
        long deadline = System.nanoTime() + SETTLED.toNanos();
        while (tracking.invalidations() == received) {
            assertThat(System.nanoTime()).as("an invalidation within %s", SETTLED).isLessThan(deadline);
            sleep(Duration.ofMillis(1));
        }
    }

    /** Until Redis holds every id's key, within {@link #SETTLED}. */
    private static void awaitInRedis(String... ids) throws InterruptedException {
        long deadline = System.nanoTime() + SETTLED.toNanos();
        byte[][] keys = Arrays.stream(ids).map(NearCacheManagerTest::key).toArray(byte[][]::new);
        while (redis.sync().exists(keys) < ids.length) {
            assertThat(System.nanoTime()).as("%s in Redis within %s", List.of(ids), SETTLED).isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    /** An id no other case uses. */
    private static String fresh(String what) {
        return what + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** The key RedisCache writes for {@code id} in the cache {@code items}: Spring Boot's default prefix, {@code <cache name>::}. */
    private static byte[] key(String id) {
        return keyString(id).getBytes(StandardCharsets.UTF_8);
    }

    private static String keyString(String id) {
        return "items::" + id;
    }

    /** The value bytes RedisCache writes, with Spring Boot's default serializer. */
    private byte[] bytes(Object value) {
        return ByteUtils.getBytes(nearCache().getCacheConfiguration().getValueSerializationPair().write(value));
    }

    private Object read(byte[] stored) {
        return nearCache().getCacheConfiguration().getValueSerializationPair().read(ByteBuffer.wrap(stored));
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** Redis's {@code MONITOR} on a socket of its own: every command the server executes, with its arguments. */
    static final class Monitor implements AutoCloseable {

        private static final Pattern ARGUMENT = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");

        private final Socket socket;

        private final BufferedReader reader;

        private Monitor(Socket socket) throws IOException {
            this.socket = socket;
            this.reader = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            socket.setSoTimeout(5000);
            socket.getOutputStream().write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            String answer = reader.readLine();
            if (!"+OK".equals(answer)) {
                throw new IllegalStateException("MONITOR answered " + answer);
            }
        }

        static Monitor start(String redisUrl) {
            URI uri = URI.create(redisUrl);
            try {
                return new Monitor(new Socket(uri.getHost(), uri.getPort()));
            }
            catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        }

        /**
         * Each command named {@code command} executed since the monitor started, as its name in lower
         * case and its arguments: read up to an {@code ECHO} of a marker sent now on {@code connection},
         * which Redis executes after everything before it.
         */
        List<List<String>> until(String command, StatefulRedisConnection<byte[], byte[]> connection) {
            String marker = "monitor-" + UUID.randomUUID();
            connection.sync().echo(marker.getBytes(StandardCharsets.UTF_8));
            List<List<String>> found = new ArrayList<>();
            try {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    List<String> words = new ArrayList<>();
                    Matcher argument = ARGUMENT.matcher(line.substring(Math.max(0, line.indexOf(']'))));
                    while (argument.find()) {
                        words.add(argument.group(1));
                    }
                    if (words.isEmpty()) {
                        continue;
                    }
                    words.set(0, words.get(0).toLowerCase());
                    if (words.equals(List.of("echo", marker))) {
                        return found;
                    }
                    if (words.get(0).equals(command)) {
                        found.add(words);
                    }
                }
            }
            catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
            throw new IllegalStateException("MONITOR ended before the marker");
        }

        @Override
        public void close() {
            try {
                socket.close();
            }
            catch (IOException ex) {
                // closing
            }
        }
    }

    /** The address (the proxy's end) of each connection Redis lists with the tracking flag. */
    private static List<String> trackingClientsNow() {
        return TrackingClients.addresses(redis.sync().clientList());
    }
}
