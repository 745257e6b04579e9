package dev.colorbench.testkit;

import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.colorbench.testkit.statistics.Statistics;
import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import io.lettuce.core.KeyValue;
import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * What a module that answers from a local copy Redis invalidates (a near cache) must prove beyond
 * the contract: that a warm request costs Redis nothing, and that the copy is never stale for longer
 * than the invalidation takes to arrive, whatever happens. Besides the cost, each case is another
 * writer changing colors in Redis, a plain {@code SET} of the consistent JSON of another color under
 * the module's key, over a connection of the test's own:
 *
 * <ul>
 * <li>20 warm requests (the palette, one color, a subset) cost no Redis command and no round trip,
 * counted from outside with {@link RedisCommandStats};</li>
 * <li>one write at a time, 200 of them: each must be served within {@link #SETTLED} (measured from the
 * {@code SET}'s reply to the first answer showing the new value), and every answer before it must show the
 * value from before; the median, 99th percentile and maximum are printed, not asserted: on a shared machine
 * they measure its scheduling as much as the module (the benchmark reports them under load);</li>
 * <li>while writes go on, the connections cut ({@code CLIENT KILL TYPE normal}), Redis restarted
 * empty, the database flushed, or reads racing writes as fast as they can: once the writes stop and
 * {@link #SETTLED} has passed, every answer must be what Redis holds (a stale answer then is one the
 * module will give for good: an invalidation it missed, or a value it put after its invalidation);</li>
 * <li>the connection on which Redis tells the module about writes goes silent without closing (the
 * module reaches Redis through a {@link DelayProxy}, which freezes the connections Redis lists as
 * tracking, and keeps them open): another writer's change must still be served within
 * {@link #SILENT_BOUND}.</li>
 * </ul>
 *
 * <p>The test owns its Redis, because it kills connections, restarts the server and flushes it:
 * never the server in {@code REDIS_URL}. Each module has a one-line subclass naming its keys.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@DirtiesContext
public abstract class StalenessContractTest {

    /**
     * The staleness bound a near cache states and these tests hold it to: how long after another writer's
     * {@code SET} (its reply) an answer may still show the value from before. Beyond it, stale means stale for
     * good. The figures are milliseconds (the module's README has them); the bound is what a loaded 2-core
     * machine cannot break by scheduling alone.
     */
    public static final Duration SETTLED = Duration.ofSeconds(1);

    /**
     * How stale an answer may be while the connection that carries the invalidations is silent
     * without closing: the time the module takes to notice it, with the test's own polling on top.
     */
    public static final Duration SILENT_BOUND = Duration.ofSeconds(2);

    /** How soon a module must be warm again (answering without Redis) when nothing disturbs it. */
    private static final Duration WARM = Duration.ofSeconds(5);

    private static final int WRITES = 200;

    /** Writes before those measured, so that what runs only after a write (a miss, its MGET) is compiled. */
    private static final int WARM_UP_WRITES = 50;

    /** Warm requests whose cost is counted. */
    private static final int WARM_REQUESTS = 20;

    private static final EmbeddedRedis REDIS = EmbeddedRedis.start();

    /** The module's path to Redis: adds nothing, and can freeze one connection. */
    private static final DelayProxy PATH = DelayProxy.start("127.0.0.1", URI.create(REDIS.url()).getPort(), Duration.ZERO);

    private static final Pattern TRACKING_CLIENT = Pattern.compile("^.*\\baddr=(\\S+) .*\\bflags=(\\S*t\\S*) .*$", Pattern.MULTILINE);

    private static RedisClient redisClient;

    private static StatefulRedisConnection<String, String> redis;

    private final Function<String, String> keyOf;

    @LocalServerPort
    private int port;

    /** @param keyOf the key the module reads a color's JSON from, by name */
    protected StalenessContractTest(Function<String, String> keyOf) {
        this.keyOf = keyOf;
    }

    @DynamicPropertySource
    static void redisUrl(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.url", () -> "redis://127.0.0.1:" + PATH.port());
    }

    @BeforeAll
    static void connect() {
        redisClient = RedisClient.create(REDIS.url());
        redis = redisClient.connect();
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

    /** Whatever a case changed, Redis holds the palette again and the module serves it. */
    @AfterEach
    void restoreThePalette() {
        Map<String, String> palette = new LinkedHashMap<>();
        Palette.all().forEach(color -> palette.put(keyOf.apply(color.name()), ColorJson.of(color)));
        redis.sync().mset(palette);
        awaitAnswer("/colors", ColorJson.palette(), SETTLED);
    }

    @Test
    void warmRequestsCostRedisNothing() {
        awaitWarm();
        try (RedisCommandStats stats = RedisCommandStats.connect(REDIS.url())) {
            RedisCommandStats.Usage usage = stats.usage(() -> {
                for (int i = 0; i < WARM_REQUESTS; i++) {
                    String path = switch (i % 4) {
                        case 0, 1 -> "/colors";
                        case 2 -> "/colors/" + name(i);
                        default -> "/colors?names=" + name(i) + "," + name(i + 1);
                    };
                    HttpResponse<String> response = get(path);
                    assertThat(response.statusCode()).as(path).isEqualTo(200);
                }
            });

            assertThat(usage.commands()).as("Redis commands of %d warm requests", WARM_REQUESTS).isEmpty();
            assertThat(usage.roundTrips()).as("round trips of %d warm requests", WARM_REQUESTS).isIn(0L, null);
        }
    }

    @Test
    void anotherWritersChangeIsServedWithinTheBound() {
        awaitWarm();
        Map<String, String> current = new LinkedHashMap<>();
        Palette.all().forEach(color -> current.put(color.name(), ColorJson.of(color)));
        List<Long> staleness = new ArrayList<>();
        int staleAnswers = 0;
        for (int i = -WARM_UP_WRITES; i < WRITES; i++) {
            String name = name(i);
            String before = current.get(name);
            String after = ColorJson.of(repainted(name, i + WARM_UP_WRITES));
            String path = (Math.floorMod(i, 2) == 0) ? "/colors/" + name : "/colors";

            Served served = awaitServed(() -> redis.sync().set(keyOf.apply(name), after), path, before, after, this::get, name);
            if (i >= 0) {
                staleness.add(served.nanos());
                staleAnswers += served.staleAnswers();
            }
            current.put(name, after);
        }

        staleness.sort(null);
        Duration p50 = percentile(staleness, 50);
        Duration p99 = percentile(staleness, 99);
        Duration max = Duration.ofNanos(staleness.get(staleness.size() - 1));
        System.out.printf("Staleness over %d writes (SET reply to the first answer with the new value): p50 %s, p99 %s, max %s"
                + " (bound: each <= %s); %d answers with the value from before%n", WRITES, millis(p50), millis(p99), millis(max),
                millis(SETTLED), staleAnswers);
        assertThat(max).as("the stalest of %d writes (p50 %s, p99 %s)", WRITES, millis(p50), millis(p99)).isLessThanOrEqualTo(SETTLED);
    }

    @Test
    void noAnswerIsStaleAfterTheConnectionsAreCutWhileAnotherWriterWrites() throws InterruptedException {
        awaitWarm();
        List<String> names = names(8);
        try (BackgroundLoad load = load(names, 2)) {
            for (int cut = 0; cut < 3; cut++) {
                Thread.sleep(300);
                redis.sync().clientKill(KillArgs.Builder.typeNormal());
            }
            Thread.sleep(300);
        }
        // the last writes land while the module reconnects (its back-off starts at tens of milliseconds):
        // no invalidation will ever tell it about them
        redis.sync().clientKill(KillArgs.Builder.typeNormal());
        for (int i = 0; i < names.size(); i++) {
            redis.sync().set(keyOf.apply(names.get(i)), ColorJson.of(repainted(names.get(i), -2 - i)));
        }

        assertEveryAnswerIsWhatRedisHoldsOnceSettled();
        awaitWarm();
    }

    @Test
    void noAnswerIsStaleAfterRedisRestartsEmptyWhileAnotherWriterWrites() {
        awaitWarm();
        REDIS.stop();
        REDIS.startServer();
        RedisClient writerClient = RedisClient.create(REDIS.url());
        try (StatefulRedisConnection<String, String> writer = writerClient.connect()) {
            int i = 0;
            for (String name : names(8)) {
                writer.sync().set(keyOf.apply(name), ColorJson.of(repainted(name, i++)));
            }
        }
        finally {
            writerClient.shutdown();
        }

        assertEveryAnswerIsWhatRedisHoldsOnceSettled();
        awaitWarm();
    }

    @Test
    void aFlushEmptiesTheCopy() {
        awaitWarm();
        String name = name(0);
        String repainted = ColorJson.of(repainted(name, 0));
        redis.sync().set(keyOf.apply(name), repainted);
        awaitAnswer("/colors/" + name, repainted, SETTLED);
        awaitWarm();

        redis.sync().flushdb();

        assertEveryAnswerIsWhatRedisHoldsOnceSettled();
        awaitWarm();
    }

    /**
     * The connection that carries the invalidations goes silent without closing, as when a NAT or a
     * load balancer forgets an idle flow or the network parts: the proxy stops forwarding every
     * connection Redis lists with the tracking flag, both ways, and keeps it open. Another writer's
     * change must be served within {@link #SILENT_BOUND} all the same (the module notices the silence
     * and stops answering from the copy), and the module must be warm again afterwards.
     */
    @Test
    void aWriteIsServedWithinTheBoundWhileTheTrackingConnectionIsSilent() {
        awaitWarm();
        List<String> tracking = trackingClients();
        assertThat(tracking).as("connections Redis lists as tracking, in CLIENT LIST").isNotEmpty();
        tracking.forEach(address -> assertThat(PATH.freeze(address)).as("the proxy's connection from %s", address).isTrue());

        String name = name(7);
        String before = ColorJson.of(Palette.find(name).orElseThrow());
        String after = ColorJson.of(repainted(name, 7));
        Served served = awaitServed(() -> redis.sync().set(keyOf.apply(name), after), "/colors", before, after, this::get, name, SILENT_BOUND);

        System.out.printf("Tracking connection silent: another writer's change served after %s (bound %s), %d answers with the value from before%n",
                millis(Duration.ofNanos(served.nanos())), millis(SILENT_BOUND), served.staleAnswers());
        awaitWarm();
        assertThat(trackingClients()).as("tracking connections once the silent one was given up").isNotEmpty().doesNotContainAnyElementsOf(tracking);
    }

    /** The address (as Redis sees it: the proxy's end) of each connection Redis lists with the tracking flag. */
    private static List<String> trackingClients() {
        List<String> addresses = new ArrayList<>();
        Matcher client = TRACKING_CLIENT.matcher(redis.sync().clientList());
        while (client.find()) {
            addresses.add(client.group(1));
        }
        return addresses;
    }

    @Test
    void readsRacingWritesLeaveNothingStale() throws InterruptedException {
        awaitWarm();
        List<String> names = names(4);
        for (int round = 0; round < 3; round++) {
            try (BackgroundLoad load = load(names, 3)) {
                Thread.sleep(1000);
            }
            assertEveryAnswerIsWhatRedisHoldsOnceSettled();
        }
        awaitWarm();
    }

    /**
     * Another writer changing {@code names} as fast as it can over a connection of the test's own,
     * and {@code readers} threads asking for them and for the whole palette, until closed. A read may
     * be answered 200 or, while connections are cut, 503; nothing else.
     */
    private BackgroundLoad load(List<String> names, int readers) {
        return new BackgroundLoad(i -> {
            String name = names.get(i % names.size());
            redis.sync().set(keyOf.apply(name), ColorJson.of(repainted(name, i)));
        }, readers, (reader, i) -> {
            String path = (i % 2 == reader % 2) ? "/colors/" + names.get(i % names.size()) : "/colors";
            HttpResponse<String> response = get(path);
            assertThat(response.statusCode()).as("%s under load: %s", path, response.body()).isIn(200, 503);
        });
    }

    /**
     * Once {@link #SETTLED} has passed since the last write, every answer, of the whole palette, of
     * each color and of a subset, is what Redis holds: each stored value, or the palette's color
     * where there is none (the module writes those back, with the same value).
     */
    private void assertEveryAnswerIsWhatRedisHoldsOnceSettled() {
        sleep(SETTLED);
        awaitAnswer("/colors", null, WARM);
        Map<String, String> held = heldInRedis();
        String palette = held.values().stream().collect(Collectors.joining(",", "[", "]"));
        for (int round = 0; round < 3; round++) {
            assertAnswer("/colors", palette);
            for (Color color : Palette.all()) {
                assertAnswer("/colors/" + color.name(), held.get(color.name()));
            }
            String some = name(round) + "," + name(round + 40) + "," + name(round);
            assertAnswer("/colors?names=" + some, "[" + held.get(name(round)) + "," + held.get(name(round + 40)) + "," + held.get(name(round)) + "]");
        }
        assertThat(heldInRedis()).as("what Redis held during the checks (nothing wrote meanwhile)").isEqualTo(held);
    }

    /** Each color's JSON as Redis holds it, or the palette's where it holds none, in palette order. */
    private Map<String, String> heldInRedis() {
        List<String> names = Palette.names();
        List<KeyValue<String, String>> values = redis.sync().mget(names.stream().map(keyOf).toArray(String[]::new));
        Map<String, String> held = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            held.put(name, values.get(i).hasValue() ? values.get(i).getValue() : ColorJson.of(Palette.find(name).orElseThrow()));
        }
        return held;
    }

    private void assertAnswer(String path, String expected) {
        HttpResponse<String> response = get(path);
        assertThat(response.statusCode()).as("%s: %s", path, response.body()).isEqualTo(200);
        if (!response.body().equals(expected)) {
            fail("%s is not what Redis holds: %s", path, difference(expected, response.body()));
        }
    }

    /** The colors that differ between two answers, each as Redis holds it and as answered (the first few). */
    private static String difference(String expected, String actual) {
        List<String> held = List.of(expected.replaceAll("^\\[|]$", "").split("(?<=}),"));
        List<String> answered = List.of(actual.replaceAll("^\\[|]$", "").split("(?<=}),"));
        if (held.size() != answered.size()) {
            return held.size() + " colors held, " + answered.size() + " answered: " + actual;
        }
        List<String> differences = new ArrayList<>();
        for (int i = 0; i < held.size() && differences.size() < 5; i++) {
            if (!held.get(i).equals(answered.get(i))) {
                differences.add("held " + held.get(i) + ", answered " + answered.get(i));
            }
        }
        return String.join("; ", differences);
    }

    /** Until {@code path} answers 200 (with {@code expected}, unless null), within {@code within}. */
    private void awaitAnswer(String path, String expected, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        HttpResponse<String> response = get(path);
        while (!(response.statusCode() == 200 && (expected == null || response.body().equals(expected))) && System.nanoTime() < deadline) {
            sleep(Duration.ofMillis(10));
            response = get(path);
        }
        assertThat(response.statusCode()).as("%s within %s: %s", path, within, response.body()).isEqualTo(200);
        if (expected != null) {
            assertThat(response.body()).as("%s within %s", path, within).isEqualTo(expected);
        }
    }

    /** Until a {@code GET /colors} costs Redis nothing, within {@link #WARM}: tracking is active and the copy full. */
    protected void awaitWarm() {
        long deadline = System.nanoTime() + WARM.toNanos();
        try (RedisCommandStats stats = RedisCommandStats.connect(REDIS.url())) {
            while (true) {
                Map<String, Long> cost = stats.during(() -> get("/colors"));
                if (cost.isEmpty()) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    fail("GET /colors still costs %s after %s: the module does not answer from a local copy", cost, WARM);
                }
                sleep(Duration.ofMillis(20));
            }
        }
    }

    /** How long one write took to be served: from the write's reply to the first answer with its value, and the answers before it. */
    public record Served(long nanos, int staleAnswers) {
    }

    /**
     * Another writer's change and the wait for it: runs {@code write}, then asks {@code path} until
     * it shows {@code after}. Every answer before must be a 200 showing {@code before} (the value
     * before or after, nothing else), and none may come later than {@link #SETTLED} after the write.
     */
    public static Served awaitServed(Runnable write, String path, String before, String after, Function<String, HttpResponse<String>> get,
            String what) {
        return awaitServed(write, path, before, after, get, what, SETTLED);
    }

    /** {@link #awaitServed(Runnable, String, String, String, Function, String)}, failing only after {@code limit}. */
    public static Served awaitServed(Runnable write, String path, String before, String after, Function<String, HttpResponse<String>> get,
            String what, Duration limit) {
        write.run();
        long written = System.nanoTime();
        int staleAnswers = 0;
        while (true) {
            HttpResponse<String> response = get.apply(path);
            long answered = System.nanoTime();
            assertThat(response.statusCode()).as(path).isEqualTo(200);
            if (response.body().contains(after)) {
                return new Served(answered - written, staleAnswers);
            }
            assertThat(response.body()).as("%s while %s is changed: the value before or after", path, what).contains(before);
            staleAnswers++;
            if (answered - written > limit.toNanos()) {
                fail("%s still answers %s's value from before a write %s ago", path, what, limit);
            }
        }
    }

    /** A consistent color under {@code name} that is neither the palette's nor that of another {@code i}. */
    public static Color repainted(String name, int i) {
        Color original = Palette.find(name).orElseThrow();
        int rgb = Integer.parseInt(original.hex().substring(1), 16) ^ (int) (((i + 1) * 2654435761L) & 0xFFFFFF);
        return new Color(name, "#%06x".formatted(rgb), (rgb >> 16) & 0xFF, (rgb >> 8) & 0xFF, rgb & 0xFF);
    }

    private static String name(int i) {
        List<String> names = Palette.names();
        return names.get(Math.floorMod(i, names.size()));
    }

    /** {@code count} colors spread over the palette. */
    private static List<String> names(int count) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            names.add(name(i * Palette.names().size() / count + 3));
        }
        return names;
    }

    /** The one definition's percentile ({@link Statistics#percentile}) of nanoseconds. */
    private static Duration percentile(List<Long> nanos, int percent) {
        return Duration.ofNanos((long) Statistics.percentile(nanos.stream().mapToDouble(Long::doubleValue).toArray(), percent));
    }

    private static String millis(Duration duration) {
        return "%.2f ms".formatted(duration.toNanos() / 1e6);
    }

    /** A connection of the test's own to the test's own Redis. */
    protected static RedisCommands<String, String> redis() {
        return redis.sync();
    }

    protected HttpResponse<String> get(String pathAndQuery) {
        return LocalHttp.get(port, pathAndQuery);
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
