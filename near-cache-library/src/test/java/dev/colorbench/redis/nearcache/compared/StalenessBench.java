package dev.colorbench.redis.nearcache.compared;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
import io.lettuce.core.api.sync.RedisCommands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * What the tests of the other clients' client-side caches share: a Redis of the test's own ({@link EmbeddedRedis},
 * {@code REDIS_SERVER} names another server binary), the path the client under test takes to it (a
 * {@link DelayProxy}, which adds nothing until a case slows or freezes it), another writer on a connection of its own
 * that never goes through the path, and the cases of {@code NearCacheStalenessTest}, run the same way and measured
 * rather than required: each test class asserts what its client does.
 *
 * <p>A read is a function from a key to the value the client answers ({@code null} for none); a read that fails
 * throws.
 */
final class StalenessBench implements AutoCloseable {

    /** How long after another writer's {@code SET} (its reply) a read may show the value from before: the near cache's bound in {@code NearCacheStalenessTest}. */
    static final Duration SETTLED = Duration.ofSeconds(1);

    /** How long a write may go unserved while the client's connection is silent: the brief's bound, the near cache's 1.25 s and slack. */
    static final Duration SILENT_BOUND = Duration.ofSeconds(2);

    /** How long a value that should have been replaced is watched. */
    static final Duration WATCH = Duration.ofSeconds(3);

    /** How long any wait for something that must happen may take, on a loaded 2-core machine. */
    static final Duration WAIT = Duration.ofSeconds(5);

    /** The round trip the path gets while the client reconnects after a kill: the reconnection then takes a few of them. */
    static final Duration SLOW_PATH = Duration.ofMillis(200);

    private static final Pattern TRACKING_CLIENT = Pattern.compile("^.*\\baddr=(\\S+) .*\\bflags=(\\S*t\\S*) .*$", Pattern.MULTILINE);

    private final String prefix;

    private final EmbeddedRedis redis;

    private final DelayProxy path;

    private final RedisClient writerClient;

    private final StatefulRedisConnection<String, String> writer;

    private final String server;

    private StalenessBench(String prefix) {
        quietClientLogs();
        this.prefix = prefix;
        this.redis = EmbeddedRedis.start();
        this.path = DelayProxy.start("127.0.0.1", redis.port(), Duration.ZERO);
        this.writerClient = RedisClient.create(redis.url());
        this.writer = writerClient.connect();
        try (RedisCommandStats stats = RedisCommandStats.connect(redis.url())) {
            this.server = stats.server();
        }
    }

    /** A Redis of its own, a path to it and a writer; every key of the case under {@code prefix}. */
    static StalenessBench start(String prefix) {
        return new StalenessBench(prefix);
    }

    /** {@code Redis 8.0.2} or {@code Valkey 9.1.2}. */
    String server() {
        return server;
    }

    /** Whether the server is Redis (not Valkey) of {@code major.minor} or later. */
    boolean redisAtLeast(int major, int minor) {
        Matcher version = Pattern.compile("^Redis (\\d+)\\.(\\d+)").matcher(server);
        if (!version.find()) {
            return false;
        }
        int found = Integer.parseInt(version.group(1)) * 1000 + Integer.parseInt(version.group(2));
        return found >= major * 1000 + minor;
    }

    /** The host the client under test connects to. */
    String host() {
        return "127.0.0.1";
    }

    /** The port of the client's path to Redis. */
    int port() {
        return path.port();
    }

    /** The URL of the client's path to Redis. */
    String url() {
        return "redis://127.0.0.1:" + path.port();
    }

    /** Another writer: a connection of the test's own, straight to Redis. */
    RedisCommands<String, String> redis() {
        return writer.sync();
    }

    /** {@code count} keys under the prefix. */
    List<String> keys(String name, int count) {
        return IntStream.range(0, count).mapToObj(i -> prefix + name + ":" + i).toList();
    }

    /** Each key's value as Redis holds it, null where none, in order. */
    Map<String, String> held(List<String> keys) {
        List<KeyValue<String, String>> values = redis().mget(keys.toArray(String[]::new));
        Map<String, String> held = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            held.put(keys.get(i), values.get(i).hasValue() ? values.get(i).getValue() : null);
        }
        return held;
    }

    /** Each key set to {@code <key>-<suffix>}. */
    Map<String, String> write(List<String> keys, String suffix) {
        Map<String, String> values = new LinkedHashMap<>();
        keys.forEach(key -> values.put(key, key + "-" + suffix));
        redis().mset(values);
        return values;
    }

    /** Reads every key through the client until it answers what Redis holds, within {@link #WAIT}: the client's copy full and right. */
    void warm(List<String> keys, Function<String, String> read) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        Reads reads;
        while (!(reads = readAll(keys, read)).right()) {
            if (System.nanoTime() > deadline) {
                fail("the client still answers %s after %s", reads, WAIT);
            }
            sleep(Duration.ofMillis(20));
        }
    }

    /**
     * Reads every key through the client until two passes in a row answer every key without failing and without a
     * {@code GET} reaching Redis, within {@link #WAIT}: the client's copy full, whether right or not. Two, because a
     * client that reads its invalidations only when it uses a connection (Jedis reads a cached entry's connection on
     * each hit) can drop one key's entry while serving another key later in the same pass; the second pass finds it.
     */
    void fill(List<String> keys, Function<String, String> read) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        int fromTheCopy = 0;
        while (fromTheCopy < 2) {
            AtomicReference<Reads> pass = new AtomicReference<>();
            Map<String, Long> commands = commandsDuring(() -> pass.set(readAll(keys, read)));
            fromTheCopy = pass.get().failed().isEmpty() && !commands.containsKey("get") ? fromTheCopy + 1 : 0;
            if (fromTheCopy < 2 && System.nanoTime() > deadline) {
                fail("reads through the client still fail or reach Redis after %s: %s, commands %s", WAIT, pass.get(), commands);
            }
            if (fromTheCopy == 0) {
                sleep(Duration.ofMillis(20));
            }
        }
    }

    /** The commands Redis executed while {@code action} ran (the writer's own included). */
    Map<String, Long> commandsDuring(Runnable action) {
        try (RedisCommandStats stats = RedisCommandStats.connect(redis.url())) {
            return stats.during(action);
        }
    }

    /** A number from {@code INFO section}, such as {@code tracking_clients}. */
    long info(String section, String name) {
        Matcher value = Pattern.compile("^" + name + ":(\\d+)", Pattern.MULTILINE).matcher(redis().info(section));
        assertThat(value.find()).as("%s in INFO %s", name, section).isTrue();
        return Long.parseLong(value.group(1));
    }

    /** How many connections Redis lists as tracking. */
    long trackingClients() {
        return info("clients", "tracking_clients");
    }

    /** The address (the proxy's end, as Redis sees it) of each connection Redis lists with the tracking flag. */
    List<String> trackingConnections() {
        List<String> addresses = new ArrayList<>();
        Matcher client = TRACKING_CLIENT.matcher(redis().clientList());
        while (client.find()) {
            addresses.add(client.group(1));
        }
        return addresses;
    }

    /** Freezes, in the path, every connection Redis lists as tracking: open, and silent both ways. */
    List<String> freezeTrackingConnections() {
        List<String> frozen = trackingConnections();
        assertThat(frozen).as("connections Redis lists as tracking, in CLIENT LIST").isNotEmpty();
        frozen.forEach(address -> assertThat(path.freeze(address)).as("the path's connection from %s", address).isTrue());
        return frozen;
    }

    /** Kills every normal connection but the writer's ({@code CLIENT KILL TYPE normal}). */
    long killClients() {
        return redis().clientKill(KillArgs.Builder.typeNormal());
    }

    /** Sets the path's added round trip from now on. */
    void pathRoundTrip(Duration added) {
        path.setAddedRoundTrip(added);
    }

    /** Stops Redis and starts it again, empty, on its port; the writer reconnects. */
    void restartEmpty() {
        redis.stop();
        redis.startServer();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            try {
                redis().ping();
                return;
            }
            catch (RuntimeException ex) {
                if (System.nanoTime() > deadline) {
                    throw ex;
                }
                sleep(Duration.ofMillis(20));
            }
        }
    }

    /** What a read of many keys answered: per key, the value, or the failure. */
    record Reads(Map<String, String> answered, Map<String, String> held, List<String> stale, List<String> failed) {

        boolean right() {
            return stale.isEmpty() && failed.isEmpty();
        }

        @Override
        public String toString() {
            return "%d stale %s, %d failed %s".formatted(stale.size(), stale, failed.size(), failed);
        }
    }

    /** Each key read once through the client, and compared with what Redis holds. */
    Reads readAll(List<String> keys, Function<String, String> read) {
        Map<String, String> answered = new LinkedHashMap<>();
        List<String> failed = new ArrayList<>();
        for (String key : keys) {
            try {
                answered.put(key, read.apply(key));
            }
            catch (RuntimeException ex) {
                failed.add(key + " (" + ex.getClass().getSimpleName() + ")");
            }
        }
        Map<String, String> held = held(keys);
        List<String> stale = new ArrayList<>();
        answered.forEach((key, value) -> {
            if (!Objects.equals(value, held.get(key))) {
                stale.add(key);
            }
        });
        return new Reads(answered, held, stale, failed);
    }

    /**
     * Another writer {@code SET}s the keys in turn, {@code writes} times, and the client reads each key until it
     * answers the new value: how long after the {@code SET}'s reply, each time. Every read before must answer the
     * value from before, and each must be served within {@link #SETTLED}.
     */
    List<Long> servedAfterWrites(List<String> keys, int writes, Function<String, String> read) {
        Map<String, String> current = new LinkedHashMap<>(held(keys));
        List<Long> served = new ArrayList<>();
        for (int i = 0; i < writes; i++) {
            String key = keys.get(i % keys.size());
            String before = current.get(key);
            String after = key + "-w" + i;
            redis().set(key, after);
            long written = System.nanoTime();
            while (true) {
                String value = read.apply(key);
                long now = System.nanoTime();
                if (after.equals(value)) {
                    served.add(now - written);
                    break;
                }
                assertThat(value).as("%s while it is changed: the value before or after", key).isEqualTo(before);
                if (now - written > SETTLED.toNanos()) {
                    fail("%s still reads its value from before a write %s ago", key, SETTLED);
                }
            }
            current.put(key, after);
        }
        served.sort(null);
        return served;
    }

    /**
     * {@code key} read through the client, every 10 ms, for at most {@code within} after another writer's change
     * from {@code before} to {@code after}: how long until it answered {@code after}, or null if it never did. Every
     * other answer must be {@code before}.
     */
    Duration watch(String key, String before, String after, Duration within, Function<String, String> read) {
        long written = System.nanoTime();
        while (true) {
            String value = read.apply(key);
            long now = System.nanoTime();
            if (Objects.equals(after, value)) {
                return Duration.ofNanos(now - written);
            }
            assertThat(value).as("%s %d ms after another writer's change", key, Duration.ofNanos(now - written).toMillis()).isEqualTo(before);
            if (now - written > within.toNanos()) {
                return null;
            }
            sleep(Duration.ofMillis(10));
        }
    }

    /**
     * The kill case of {@code NearCacheStalenessTest}: while another writer writes the keys as fast as it can and two
     * readers read them through the client (a failed read is the application's error, not the test's), the client's
     * connections are killed three times, 300 ms apart. Then, {@link #SETTLED} later, every key is read until the
     * client answers all from its copy (full, right or not), the path slowed to
     * {@link #SLOW_PATH} so that the client takes a while to reconnect, the connections killed once more and every key
     * written ({@code -last}) while it reconnects; the path is fast again. What every read answers {@link #SETTLED}
     * after those writes.
     */
    Reads killedWhileAnotherWriterWrites(List<String> keys, Function<String, String> read) throws InterruptedException {
        warm(keys, read);
        try (BackgroundLoad load = new BackgroundLoad(i -> {
            String key = keys.get(i % keys.size());
            redis().set(key, key + "-load" + i);
        }, 2, (reader, i) -> {
            try {
                read.apply(keys.get(i % keys.size()));
            }
            catch (RuntimeException ex) {
                // the connection cut: the application's error
            }
        })) {
            for (int cut = 0; cut < 3; cut++) {
                Thread.sleep(300);
                killClients();
            }
            Thread.sleep(300);
            // the invalidations of the load's last writes still on their way when it stops, as they can be on a busy machine
            pathRoundTrip(Duration.ofMillis(100));
        }
        pathRoundTrip(Duration.ZERO);
        // the invalidations of the last writes land within SETTLED, as every other case asserts; a client that reads
        // them only on use (Jedis) would otherwise drop an entry at the reads after the cut, a miss on a dead connection
        sleep(SETTLED);
        fill(keys, read);
        pathRoundTrip(SLOW_PATH);
        try {
            // none may be left to kill: a client that reconnects only on use (Jedis) holds none when its copy answered
            // every read of the fill since the last cut. Its connections are down either way while the keys are written.
            killClients();
            write(keys, "last");
        }
        finally {
            pathRoundTrip(Duration.ZERO);
        }
        sleep(SETTLED);
        return readAll(keys, read);
    }

    /**
     * The restart case: with the copy full, Redis stops and starts again empty; another writer then writes the first
     * half of the keys ({@code -after-restart}) and leaves the rest missing. What every read answers {@link #SETTLED}
     * after.
     */
    Reads restartedEmpty(List<String> keys, Function<String, String> read) {
        warm(keys, read);
        restartEmpty();
        write(keys.subList(0, keys.size() / 2), "after-restart");
        sleep(SETTLED);
        return readAll(keys, read);
    }

    /** What {@link #racingReaders} found once the writes stopped. */
    record Race(long writes, long reads, long failures, Reads settled) {
    }

    /**
     * Another writer writes the keys as fast as it can and {@code readers} threads read them through the client, for
     * {@code during}; {@link #SETTLED} after the last write, every key is read once more and compared with Redis.
     */
    Race racingReaders(List<String> keys, int readers, Duration during, Function<String, String> read) throws InterruptedException {
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong writes = new AtomicLong();
        AtomicLong reads = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        threads.add(new Thread(() -> {
            try {
                for (int i = 0; running.get(); i++) {
                    String key = keys.get(i % keys.size());
                    redis().set(key, key + "-race" + i);
                    writes.incrementAndGet();
                }
            }
            catch (Throwable ex) {
                failure.compareAndSet(null, ex);
            }
        }, "compared-writer"));
        for (int r = 0; r < readers; r++) {
            int offset = r;
            threads.add(new Thread(() -> {
                for (int i = offset; running.get(); i++) {
                    try {
                        read.apply(keys.get(i % keys.size()));
                        reads.incrementAndGet();
                    }
                    catch (RuntimeException ex) {
                        failures.incrementAndGet();
                    }
                }
            }, "compared-reader-" + r));
        }
        threads.forEach(Thread::start);
        Thread.sleep(during.toMillis());
        running.set(false);
        for (Thread thread : threads) {
            thread.join(WAIT.toMillis());
        }
        if (failure.get() != null) {
            throw new AssertionError("the writer failed", failure.get());
        }
        sleep(SETTLED);
        return new Race(writes.get(), reads.get(), failures.get(), readAll(keys, read));
    }

    /** Case 1, the same for every client: another writer {@code SET}s keys 100 times; each change is served within {@link #SETTLED}. */
    void assertEachChangeServedWithinASecond(String client, Function<String, String> read) {
        List<String> keys = keys("served", 8);
        write(keys, "v0");
        warm(keys, read);

        List<Long> served = servedAfterWrites(keys, 100, read);

        System.out.printf("%s, case 1: over %d writes, served after the SET reply p50 %s, p99 %s, max %s%n", client, served.size(),
                millis(percentile(served, 50)), millis(percentile(served, 99)), millis(percentile(served, 100)));
        assertThat(Duration.ofNanos(percentile(served, 100))).as("the stalest of 100 writes").isLessThanOrEqualTo(SETTLED);
    }

    /** Case 5, the same for every client: the connection frozen in the path; another writer's change is not served for {@link #WATCH}. */
    void assertAChangeIsNotServedWhileFrozen(String client, Function<String, String> read) {
        String key = keys("frozen", 1).get(0);
        redis().set(key, "v0");
        warm(List.of(key), read);
        freezeTrackingConnections();

        redis().set(key, "v1");
        Duration served = watch(key, "v0", "v1", WATCH, read);

        System.out.printf("%s, case 5: connection frozen, another writer's change served: %s%n", client,
                served == null ? "not within " + millis(WATCH) : "after " + millis(served));
        assertThat(served).as("served within %s (bound %s)", WATCH, SILENT_BOUND).isNull();
    }

    /** The one definition's percentile ({@link Statistics#percentile}) of nanoseconds. */
    static long percentile(List<Long> nanos, int percent) {
        return (long) Statistics.percentile(nanos.stream().mapToDouble(Long::doubleValue).toArray(), percent);
    }

    static String millis(long nanos) {
        return "%.2f ms".formatted(nanos / 1e6);
    }

    static String millis(Duration duration) {
        return millis(duration.toNanos());
    }

    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    /** The clients log every frame at DEBUG without a configuration; a plain JUnit test has none. */
    private static void quietClientLogs() {
        for (String name : List.of("io.lettuce", "io.netty", "redis.clients", "glide", "reactor")) {
            if (org.slf4j.LoggerFactory.getLogger(name) instanceof ch.qos.logback.classic.Logger logger && logger.getLevel() == null) {
                logger.setLevel(ch.qos.logback.classic.Level.INFO);
            }
        }
    }

    @Override
    public void close() {
        try {
            writer.close();
            writerClient.shutdown();
        }
        finally {
            path.close();
            redis.stop();
        }
    }
}
