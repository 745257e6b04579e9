package dev.colorbench.redissonnearcache;

import java.lang.reflect.Field;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.testkit.EmbeddedRedis;
import dev.colorbench.testkit.LocalHttp;
import dev.colorbench.testkit.StalenessContractTest;
import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RBucket;
import org.redisson.api.RClientSideCaching;
import org.redisson.api.RedissonClient;
import org.redisson.api.options.ClientSideCachingOptions;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import org.redisson.config.Protocol;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.annotation.DirtiesContext.ClassMode;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static dev.colorbench.redissonnearcache.StalenessSteps.closeAll;
import static dev.colorbench.redissonnearcache.StalenessSteps.elapsedSince;
import static dev.colorbench.redissonnearcache.StalenessSteps.sleep;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ways Redisson 4.7.0's client-side cache ({@code RClientSideCaching}) keeps answering with a value Redis no
 * longer holds, for good, pinned: each test <b>asserts the wrong behaviour</b>, deterministically, so that the row
 * can be measured as what it is, fast but not correct under writes. They were found by running the test kit's
 * {@link StalenessContractTest} and {@code RedisOutageContractTest} against this module (their subclasses fail and
 * are kept off this branch; they, and {@code RedissonInvalidationRaceDemo}, are on branch
 * {@code redisson-row-failing-contracts}), and explained by reading Redisson's source (README).
 *
 * <p><b>A failing test here means Redisson (or Redis) changed</b>: the README's verdict ("Known stale, pinned by
 * tests") and {@code colorbench.knownStale} in the pom must be checked again, by running those contract subclasses
 * against the new version.
 *
 * <p>Every Redis here is one the test started ({@link EmbeddedRedis}): the tests kill its connections, flush it
 * and stop it, never a server in {@code REDIS_URL}. {@link TheModule} is about the module (a Spring Boot test, one
 * application per test, since each leaves Redisson's cache stale for good); {@link TheLibrary} is about Redisson
 * alone.
 */
class RedissonKnownStalenessTest {

    /** How long every wait for something that must happen may take, on a loaded 2-core machine. */
    private static final Duration WAIT = Duration.ofSeconds(5);

    /** How long a value that should have been replaced is watched still being answered. */
    private static final Duration STILL_STALE = Duration.ofSeconds(2);

    @Nested
    @SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
    @DirtiesContext(classMode = ClassMode.AFTER_EACH_TEST_METHOD)
    class TheModule {

        private static final EmbeddedRedis REDIS = EmbeddedRedis.start();

        private static final Pattern CLIENT = Pattern.compile("^id=(\\d+) .*\\bflags=(\\S*) .*\\bcmd=(\\S+)", Pattern.MULTILINE);

        @LocalServerPort
        private int port;

        @Autowired
        private RedissonNearCacheColorStore store;

        private RedisClient writerClient;

        /** Another writer: a connection of the test's own. */
        private StatefulRedisConnection<String, String> writer;

        private boolean redisStopped;

        @DynamicPropertySource
        static void redisUrl(DynamicPropertyRegistry registry) {
            registry.add("spring.data.redis.url", REDIS::url);
        }

        @AfterAll
        static void stopRedis() {
            REDIS.stop();
        }

        /** The module warm and tracking: it answers the palette, and Redis tracks the 148 keys for one client. */
        @BeforeEach
        void warmTheModule() {
            writerClient = RedisClient.create(REDIS.url());
            writer = writerClient.connect();
            HttpResponse<String> palette = get("/colors");
            assertThat(palette.statusCode()).isEqualTo(200);
            assertThat(palette.body()).isEqualTo(ColorJson.palette());
            assertThat(info(redis(), "clients", "tracking_clients")).as("tracking clients once warm").isEqualTo(1);
            assertThat(info(redis(), "stats", "tracking_total_keys")).as("keys Redis tracks once warm").isEqualTo(Palette.names().size());
        }

        /** Redis running again (empty) for the next test, whose application seeds it; the writer closed. */
        @AfterEach
        void closeTheWriterAndRestartRedis() throws Exception {
            closeAll(() -> {
                if (writer != null) {
                    writer.close();
                }
            }, () -> {
                if (writerClient != null) {
                    writerClient.shutdown();
                }
            }, () -> {
                if (redisStopped) {
                    REDIS.startServer();
                }
            });
        }

        /**
         * Pins a Redisson 4.7.0 defect: when its connections are cut, Redisson reconnects its tracked connection
         * without sending {@code CLIENT TRACKING} again and without clearing its cache, so Redis tracks nothing for
         * it and another writer's change is never reported. Found by {@code StalenessContractTest}'s cut case (and
         * its restart case, for the same reason: no re-tracking, no clearing on reconnect). If this fails, Redisson
         * changed: check the README's verdict again.
         */
        @Test
        void anotherWritersChangeIsNeverServedOnceRedissonReconnectedAfterItsConnectionsWereKilled() {
            assertAChangeIsServed("tomato");
            Object heldRead = store.heldRead("teal");
            Map<Long, Client> beforeTheKill = clients();
            assertThat(beforeTheKill.values()).as("Redis's clients before the kill: one tracking").anyMatch(Client::tracking);

            long killed = redis().clientKill(KillArgs.Builder.typeNormal());
            assertThat(killed).as("connections killed (CLIENT KILL TYPE normal; the writer's own skipped)").isPositive();
            await("Redisson reconnected: %d new connections, one of them sending Redisson's PING".formatted(killed), () -> {
                List<Client> reconnected = clients().values().stream().filter(client -> !beforeTheKill.containsKey(client.id())).toList();
                return reconnected.size() >= killed && reconnected.stream().anyMatch(client -> client.lastCommand().equals("ping"));
            });
            assertThat(info(redis(), "clients", "tracking_clients")).as("tracking clients once Redisson reconnected").isZero();

            String after = repaintedJson("teal");
            redis().set(ColorKeys.jsonKey("teal"), after);

            assertStillAnswersTheValueFromBefore("teal", paletteJson("teal"), after, heldRead);
            assertThat(info(redis(), "clients", "tracking_clients")).as("tracking clients %s after the write", STILL_STALE).isZero();
        }

        /**
         * Pins a Redisson 4.7.0 defect: a {@code FLUSHDB} makes Redis send one invalidation without keys and forget
         * every key it tracked; Redisson's listener ignores a message without keys, so it keeps every read, and
         * another writer's later change of a color is never reported. Found by {@code StalenessContractTest}'s flush
         * case. If this fails, Redisson changed: check the README's verdict again.
         */
        @Test
        void anotherWritersChangeAfterAFlushIsNeverServed() {
            assertAChangeIsServed("tomato");
            Object heldRead = store.heldRead("teal");

            redis().flushdb();
            assertThat(info(redis(), "stats", "tracking_total_keys")).as("keys Redis tracks after the flush").isZero();
            String after = repaintedJson("teal");
            redis().set(ColorKeys.jsonKey("teal"), after);

            assertStillAnswersTheValueFromBefore("teal", paletteJson("teal"), after, heldRead);
        }

        /**
         * Pins a Redisson 4.7.0 behaviour the outage contract refuses: nothing drops its cache when the connection
         * goes, so a second after Redis stopped {@code GET /colors} still answers 200 with the palette it read
         * before, where the contract wants a 503 within that second (the module cannot know whether Redis was
         * written meanwhile). Found by {@code RedisOutageContractTest}'s outage step. If this fails, Redisson
         * changed: check the README's verdict again.
         */
        @Test
        void stillAnswersThePaletteFromItsCacheASecondAfterRedisStopped() {
            REDIS.stop();
            redisStopped = true;
            long stopped = System.nanoTime();

            HttpResponse<String> response;
            do {
                response = get("/colors");
                assertThat(response.statusCode()).as("GET /colors %s after Redis stopped", elapsedSince(stopped)).isEqualTo(200);
                assertThat(response.body()).isEqualTo(ColorJson.palette());
                sleep(Duration.ofMillis(50));
            }
            while (System.nanoTime() - stopped < Duration.ofSeconds(1).toNanos());
            response = get("/colors");

            assertThat(response.statusCode()).as("GET /colors %s after Redis stopped", elapsedSince(stopped)).isEqualTo(200);
            assertThat(response.body()).isEqualTo(ColorJson.palette());
            assertThat(get("/actuator/health/readiness").statusCode()).as("readiness meanwhile (over Lettuce)").isEqualTo(503);
        }

        /** The control: without a disturbance, another writer's change of {@code name} is served (within {@link #WAIT}). */
        private void assertAChangeIsServed(String name) {
            String after = repaintedJson(name);
            StalenessContractTest.awaitServed(() -> redis().set(ColorKeys.jsonKey(name), after), "/colors/" + name, paletteJson(name), after,
                    this::get, name, WAIT);
        }

        /**
         * For {@link #STILL_STALE}, {@code name} alone and in the palette is answered with {@code before}, never
         * {@code after}, which Redis holds; and Redisson still holds the read it made before the write.
         */
        private void assertStillAnswersTheValueFromBefore(String name, String before, String after, Object heldRead) {
            long written = System.nanoTime();
            do {
                HttpResponse<String> one = get("/colors/" + name);
                assertThat(one.statusCode()).isEqualTo(200);
                assertThat(one.body()).as("/colors/%s %s after another writer's change", name, elapsedSince(written)).isEqualTo(before);
                assertThat(get("/colors").body()).as("/colors %s after the change", elapsedSince(written)).contains(before).doesNotContain(after);
                sleep(Duration.ofMillis(50));
            }
            while (System.nanoTime() - written < STILL_STALE.toNanos());
            assertThat(redis().get(ColorKeys.jsonKey(name))).as("what Redis holds").isEqualTo(after);
            assertThat((Object) store.heldRead(name)).as("Redisson's read of %s, from before the change", name).isSameAs(heldRead);
        }

        private RedisCommands<String, String> redis() {
            return writer.sync();
        }

        /** Redis's clients, by id, from {@code CLIENT LIST}. */
        private Map<Long, Client> clients() {
            Map<Long, Client> clients = new HashMap<>();
            Matcher line = CLIENT.matcher(redis().clientList());
            while (line.find()) {
                long id = Long.parseLong(line.group(1));
                clients.put(id, new Client(id, line.group(2).contains("t"), line.group(3)));
            }
            return clients;
        }

        private HttpResponse<String> get(String path) {
            return LocalHttp.get(port, path);
        }
    }

    /** One line of {@code CLIENT LIST}: its id, whether it has the tracking flag, and its last command. */
    private record Client(long id, boolean tracking, String lastCommand) {
    }

    @Nested
    class TheLibrary {

        private static final String KEY = "known-stale:race";

        private EmbeddedRedis redis;

        private RedisClient writerClient;

        private StatefulRedisConnection<String, String> writer;

        private RedissonClient redisson;

        private ExecutorService reader;

        private HoldingMap held;

        @BeforeEach
        void startRedisAndRedisson() {
            redis = EmbeddedRedis.start();
            writerClient = RedisClient.create(redis.url());
            writer = writerClient.connect();
            Config config = new Config();
            config.setProtocol(Protocol.RESP3);
            config.useSingleServer().setAddress(redis.url());
            redisson = Redisson.create(config);
            reader = Executors.newSingleThreadExecutor(task -> new Thread(task, "held-reader"));
        }

        @AfterEach
        void closeEverything() throws Exception {
            closeAll(() -> {
                if (held != null) {
                    held.release();
                }
            }, () -> {
                if (reader != null) {
                    reader.shutdownNow();
                    if (!reader.awaitTermination(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                        throw new IllegalStateException("the held reader did not end within " + WAIT);
                    }
                }
            }, () -> {
                if (redisson != null) {
                    redisson.shutdown();
                }
            }, () -> {
                if (writer != null) {
                    writer.close();
                }
            }, () -> {
                if (writerClient != null) {
                    writerClient.shutdown();
                }
            }, () -> {
                if (redis != null) {
                    redis.stop();
                }
            });
        }

        /**
         * Pins a Redisson 4.7.0 defect, the read-then-invalidate race in its bookkeeping: a read first looks up the
         * set of cache keys registered under the key's name ({@code name2cacheKey}), then caches a {@code GET}; an
         * invalidation removes that set from the map, then drops its entries. A read held between its two steps
         * while another client writes registers into the removed set and caches the new value; the next write's
         * invalidation finds nothing registered and clears nothing, and Redis, having sent it, tracks the key no
         * more: Redisson answers the old value for good. Found by {@code StalenessContractTest}'s racing case (stale
         * with no connection lost), then held in place by {@code RedissonInvalidationRaceDemo}; here the read is held
         * by putting a map of the test's own in place of Redisson's private {@code name2cacheKey} (reflection), and
         * every step waits for the one before it. If this fails, Redisson changed: check the README's verdict again.
         */
        @Test
        void aReadHeldAcrossAnInvalidationKeepsItsValueForGoodOnceAnotherWriteIsMissed() throws Exception {
            RClientSideCaching caching = redisson.getClientSideCaching(ClientSideCachingOptions.defaults());
            held = HoldingMap.putInto(caching);
            Map<?, ?> cache = (Map<?, ?>) field(caching, "cache").get(caching);
            writer.sync().set(KEY, "v0");
            RBucket<String> bucket = caching.getBucket(KEY, StringCodec.INSTANCE);
            assertThat(bucket.get()).isEqualTo("v0");
            assertThat(info(writer.sync(), "stats", "tracking_total_keys")).as("keys Redis tracks after the first read").isEqualTo(1);

            held.holdNextLookup(KEY);
            Future<String> read = reader.submit(() -> bucket.get());
            held.awaitHeld();
            writer.sync().set(KEY, "v1");
            Set<?> dropped = held.awaitInvalidation(1);
            assertThat(dropped).as("the cache keys the first invalidation removed").isNotNull().isNotEmpty();
            await("Redisson dropped its read of v0", () -> dropped.stream().noneMatch(cache::containsKey));
            held.release();

            assertThat(read.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("the held read, let go after the invalidation").isEqualTo("v1");
            assertThat(held.containsKey(KEY)).as("cache keys registered under the name: the read registered into the removed set").isFalse();

            writer.sync().set(KEY, "v2");
            assertThat(held.awaitInvalidation(2)).as("the cache keys the second invalidation found to drop").isNull();

            assertThat(writer.sync().get(KEY)).as("what Redis holds").isEqualTo("v2");
            assertThat(bucket.get()).as("Redisson's answer once the second invalidation was handled").isEqualTo("v1");
            assertThat(info(writer.sync(), "stats", "tracking_total_keys")).as("keys Redis tracks: none, so no invalidation will come").isZero();
            sleep(Duration.ofSeconds(1));
            assertThat(bucket.get()).as("Redisson's answer a second later").isEqualTo("v1");
        }
    }

    /**
     * What the test puts in place of Redisson's {@code name2cacheKey}: holds the next read of one name right after
     * it looked up the name's set of cache keys (before it caches anything), and records what each invalidation
     * removed ({@code clearCache} removes the name's set, then drops the cache keys in it).
     */
    static final class HoldingMap extends ConcurrentHashMap<Object, Object> {

        private volatile String holding;

        private final CountDownLatch heldNow = new CountDownLatch(1);

        private final CountDownLatch letGo = new CountDownLatch(1);

        /** What each {@code remove} (one per invalidation of a name) found, in order; null where it found nothing. */
        private final List<Object> removed = new ArrayList<>();

        static HoldingMap putInto(RClientSideCaching caching) throws ReflectiveOperationException {
            HoldingMap map = new HoldingMap();
            field(caching, "name2cacheKey").set(caching, map);
            return map;
        }

        void holdNextLookup(String name) {
            holding = name;
        }

        @Override
        public Object computeIfAbsent(Object key, Function<? super Object, ?> mapping) {
            Object value = super.computeIfAbsent(key, mapping);
            if (key.equals(holding)) {
                holding = null;
                heldNow.countDown();
                try {
                    if (!letGo.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                        throw new IllegalStateException("the held read was not let go within " + WAIT);
                    }
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(ex);
                }
            }
            return value;
        }

        @Override
        public Object remove(Object key) {
            Object value = super.remove(key);
            synchronized (removed) {
                removed.add(value);
            }
            return value;
        }

        void awaitHeld() throws InterruptedException {
            assertThat(heldNow.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("the read reached its lookup within %s", WAIT).isTrue();
        }

        /** What the {@code count}th invalidation removed (null: nothing), once it came. */
        Set<?> awaitInvalidation(int count) {
            await("invalidation " + count + " handled by Redisson", () -> {
                synchronized (removed) {
                    return removed.size() >= count;
                }
            });
            synchronized (removed) {
                return (Set<?>) removed.get(count - 1);
            }
        }

        void release() {
            letGo.countDown();
        }
    }

    private static Field field(Object owner, String name) throws NoSuchFieldException {
        Field field = owner.getClass().getDeclaredField(name);
        field.setAccessible(true);
        return field;
    }

    /** A number from {@code INFO section}, e.g. {@code tracking_clients}. */
    private static long info(RedisCommands<String, String> redis, String section, String name) {
        Matcher value = Pattern.compile("^" + name + ":(\\d+)", Pattern.MULTILINE).matcher(redis.info(section));
        assertThat(value.find()).as("%s in INFO %s", name, section).isTrue();
        return Long.parseLong(value.group(1));
    }

    private static String paletteJson(String name) {
        return ColorJson.of(Palette.find(name).orElseThrow());
    }

    private static String repaintedJson(String name) {
        return ColorJson.of(StalenessContractTest.repainted(name, 1));
    }

    /** Until {@code condition} holds, for at most {@link #WAIT}. */
    private static void await(String what, BooleanSupplier condition) {
        StalenessSteps.await(WAIT, what, condition);
    }
}
