package dev.colorbench.testkit;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

/**
 * What a Redis-backed module does with data in Redis it cannot read, and while Redis refuses
 * writes. Another writer's bad write or a value left by an older version of a module must cost
 * one request a little more, never an error: the module answers from the palette, rewrites the
 * key, warns once naming it, and the next request is served from Redis at the usual cost. A
 * Redis that refuses writes (memory full under {@code noeviction}) must still get a correct
 * answer or a 503 problem, never a 500 and never part of the palette.
 *
 * <p>The test owns its Redis, because it writes bad values and changes {@code maxmemory}: never
 * the server in {@code REDIS_URL}. Each module has a short subclass that says where it keeps a
 * color, what one {@code GET /colors} costs, and how a bad value of each {@link BadValue kind}
 * looks in its layout ({@link #corrupt}).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@DirtiesContext
@ExtendWith(OutputCaptureExtension.class)
public abstract class StoredDataContractTest {

    /** The color every case damages: no other key contains its key. */
    private static final String NAME = "tomato";

    /** A color requested by none of the {@link Request requests}, whose JSON is put where {@link #NAME} belongs. */
    private static final String OTHER_NAME = "navy";

    /** Reads after healing before one must cost a module that keeps a copy nothing. */
    private static final int READS_TO_WARM = 5;

    /** How long a module's copy may take to learn of the test's write. */
    private static final Duration INVALIDATION_RECEIVED = Duration.ofSeconds(5);

    private static final EmbeddedRedis REDIS = EmbeddedRedis.start();

    private static RedisClient redisClient;

    private static StatefulRedisConnection<String, String> redis;

    private final Function<String, String> keyOf;

    private final Map<String, Long> commandsPerFullRead;

    private final List<String> otherKeys;

    @LocalServerPort
    private int port;

    /**
     * @param keyOf the key the module keeps a color under, by name
     * @param commandsPerFullRead the Redis commands one healthy {@code GET /colors} issues, by name
     * @param otherKeys the module's keys beyond one per color (an id set)
     */
    protected StoredDataContractTest(Function<String, String> keyOf, Map<String, Long> commandsPerFullRead, String... otherKeys) {
        this.keyOf = keyOf;
        this.commandsPerFullRead = commandsPerFullRead;
        this.otherKeys = List.of(otherKeys);
    }

    /** The kinds of bad value a module must read past; {@link #corrupt} says what each is in its layout. */
    public enum BadValue {

        /** Not JSON at all; in a hash, a field that is not a number. */
        GARBLED,

        /** JSON, but not of a color's shape; in a hash, none of a color's fields. */
        WRONG_SHAPE,

        /** A whole, consistent color, but another one than the key is for. */
        ANOTHER_COLOR,

        /** A key of another Redis type than the module keeps there. */
        WRONG_TYPE;

        /** Writes this kind of bad value at {@code key} for a module that keeps each color's JSON in a string. */
        public void writeInAJsonStringLayout(RedisCommands<String, String> redis, String key, String name) {
            redis.del(key);
            switch (this) {
                case GARBLED -> redis.set(key, Palette.find(name).orElseThrow().hex());
                case WRONG_SHAPE -> redis.set(key, "{\"name\":\"" + name + "\",\"rgb\":[255,99,71]}");
                case ANOTHER_COLOR -> redis.set(key, ColorJson.of(Palette.find(OTHER_NAME).orElseThrow()));
                case WRONG_TYPE -> redis.hset(key, Map.of("name", name));
            }
        }
    }

    /**
     * Replaces what the module keeps at {@code key} for the color {@code name} with a bad value of
     * the kind {@code bad}, as it would look in the module's layout, over {@code redis}.
     */
    protected abstract void corrupt(BadValue bad, String key, String name, RedisCommands<String, String> redis);

    /** The three ways a color is asked for, each with the one right answer. */
    enum Request {

        ALL("/colors", ColorJson.palette()),
        ONE("/colors/" + NAME, ColorJson.of(Palette.find(NAME).orElseThrow())),
        SOME("/colors?names=teal," + NAME + "," + NAME, ColorJson.of(Palette.colors(List.of("teal", NAME, NAME))));

        private final String path;

        private final String answer;

        Request(String path, String answer) {
            this.path = path;
            this.answer = answer;
        }

        @Override
        public String toString() {
            return path;
        }
    }

    @DynamicPropertySource
    static void redisUrl(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.url", REDIS::url);
    }

    @BeforeAll
    static void connect() {
        redisClient = RedisClient.create(REDIS.url());
        redis = redisClient.connect();
    }

    /** Whatever the module did to heal, it never listed or flushed keys. */
    @AfterAll
    static void noWideCommandRanThenStopRedis() {
        try (RedisCommandStats stats = RedisCommandStats.connect(REDIS.url())) {
            assertThat(stats.everything()).doesNotContainKeys("flushall", "flushdb", "keys", "scan");
        }
        finally {
            redis.close();
            redisClient.shutdown();
            REDIS.stop();
        }
    }

    static Stream<Arguments> badValuesAndRequests() {
        List<Arguments> cases = new ArrayList<>();
        for (BadValue bad : BadValue.values()) {
            for (Request request : Request.values()) {
                cases.add(Arguments.of(bad, request));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} at the key, then GET {1}")
    @MethodSource("badValuesAndRequests")
    void anUnreadableValueIsAnsweredFromThePaletteRewrittenAndReportedOnce(BadValue bad, Request request, CapturedOutput output) {
        String key = keyOf.apply(NAME);
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());
        Object healthy = stored(key);
        assertThat(healthy).as("what the module keeps at %s", key).isNotNull();
        corrupt(bad, key, NAME, redis.sync());
        assertThat(stored(key)).as("the bad value at %s", key).isNotNull().isNotEqualTo(healthy);
        int logged = output.getAll().length();

        HttpResponse<String> response = get(request.path);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(request.answer);
        assertThat(stored(key)).as("%s after the read", key).isEqualTo(healthy);
        List<String> log = output.getAll().substring(logged).lines().toList();
        assertThat(log).as("warnings").filteredOn(line -> line.contains(" WARN ")).singleElement().asString().contains(key);
        assertThat(log).as("errors").noneMatch(line -> line.contains(" ERROR "));
        assertAFullReadIsServedFromRedisAtTheUsualCost();
    }

    @Test
    void whileRedisRefusesWritesAReadIsTheWholeAnswerOrA503Problem() {
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());
        redis.sync().del(moduleKeys());
        String policy = redis.sync().configGet("maxmemory-policy").get("maxmemory-policy");
        try {
            redis.sync().configSet("maxmemory-policy", "noeviction");
            redis.sync().configSet("maxmemory", "1");
            assertThatThrownBy(() -> redis.sync().set("colors::probe::" + UUID.randomUUID(), "x"))
                    .as("a write while Redis is full").isInstanceOf(RedisCommandExecutionException.class).hasMessageStartingWith("OOM");

            for (Request request : Request.values()) {
                for (int attempt = 1; attempt <= 2; attempt++) {
                    HttpResponse<String> response = get(request.path);
                    if (response.statusCode() == 503) {
                        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
                        assertThat(response.body()).contains("\"status\":503").doesNotContain("Exception");
                    }
                    else {
                        assertThat(response.statusCode()).as("GET %s, attempt %d: %s", request, attempt, response.body()).isEqualTo(200);
                        assertThat(response.body()).isEqualTo(request.answer);
                    }
                }
            }
        }
        finally {
            redis.sync().configSet("maxmemory", "0");
            redis.sync().configSet("maxmemory-policy", policy);
        }
        assertThat(get("/colors").body()).as("the read that writes the keys again").isEqualTo(ColorJson.palette());
        assertAFullReadIsServedFromRedisAtTheUsualCost();
    }

    /** Checks that the next {@code GET /colors} answers the palette at the module's usual Redis cost. */
    protected void assertAFullReadIsServedFromRedisAtTheUsualCost() {
        try (RedisCommandStats stats = RedisCommandStats.connect(REDIS.url())) {
            Map<String, Long> issued = stats.during(() -> assertThat(get("/colors").body()).isEqualTo(ColorJson.palette()));

            assertThat(issued).as("Redis commands of the next GET /colors").isEqualTo(commandsPerFullRead);
        }
    }

    /**
     * For a module that keeps a copy, whose healed colors its own rewrite invalidates: within {@link #READS_TO_WARM} reads
     * after healing one must cost Redis nothing, and each read before it what {@code missCost} accepts (given the read's
     * number and its commands).
     */
    protected void assertTheCopyIsWarmAgainAfterHealing(BiConsumer<Integer, Map<String, Long>> missCost) {
        for (int read = 1; read <= READS_TO_WARM; read++) {
            Map<String, Long> cost = commandsDuring(() -> assertThat(get("/colors").body()).isEqualTo(ColorJson.palette()));
            if (cost.isEmpty()) {
                return;
            }
            missCost.accept(read, cost);
        }
        fail("GET /colors still reads Redis %d reads after healing", READS_TO_WARM);
    }

    /**
     * Waits until {@code observed} no longer returns what it returned before the test's write to {@code key}: for a module
     * whose copy learns of a write over another connection, so that the next read sees the write.
     */
    protected static void awaitInvalidation(String key, Object before, Supplier<Object> observed) {
        awaitCopy("the module's copy of " + key + " did not learn of the test's write", () -> !Objects.equals(observed.get(), before));
    }

    /**
     * Waits until {@code learned} holds of a module's copy, which learns of a write over another connection a moment
     * after the write returns; fails with {@code otherwise} after {@link #INVALIDATION_RECEIVED}.
     */
    protected static void awaitCopy(String otherwise, BooleanSupplier learned) {
        // polled, not spun: on two cores a busy wait takes the CPU from the very connection whose news it waits for
        await(otherwise).atMost(INVALIDATION_RECEIVED).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5)).until(learned::getAsBoolean);
    }

    /** The Redis commands the test's own Redis executed while {@code action} ran, for a module's checks of its own cost. */
    protected static Map<String, Long> commandsDuring(Runnable action) {
        try (RedisCommandStats stats = RedisCommandStats.connect(REDIS.url())) {
            return stats.during(action);
        }
    }

    /** What {@code key} holds, whatever its type: a string, a hash's fields, or null if nothing. */
    private static Object stored(String key) {
        String type = redis.sync().type(key);
        return switch (type) {
            case "none" -> null;
            case "string" -> redis.sync().get(key);
            case "hash" -> redis.sync().hgetall(key);
            default -> type;
        };
    }

    private String[] moduleKeys() {
        Stream<String> colorKeys = Palette.names().stream().map(keyOf);
        return Stream.concat(colorKeys, otherKeys.stream()).toArray(String[]::new);
    }

    /** A connection of the test's own to the test's own Redis, for a module's checks of its own layout. */
    protected static RedisCommands<String, String> redis() {
        return redis.sync();
    }

    protected HttpResponse<String> get(String pathAndQuery) {
        return LocalHttp.get(port, pathAndQuery);
    }
}
