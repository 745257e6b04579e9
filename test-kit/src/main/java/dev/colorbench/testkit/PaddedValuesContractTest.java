package dev.colorbench.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorKeys;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The contract with every stored value padded ({@code colorbench.palette.value-bytes}): the module
 * answers the padded palette byte for byte, its store holds each color with its padding, and a value
 * stored without it is answered from the palette and written again. The palette is static, so these
 * tests run in a JVM of their own, started with the property: the parent pom's {@code padded-values}
 * execution of surefire runs every {@code *PaddedValuesTest}, and the default one leaves them out.
 *
 * <p>Where the module keeps the palette comes from its build-info ({@code colorbench.layout}), so a
 * module's subclass is one line.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@TestInstance(Lifecycle.PER_CLASS)
public abstract class PaddedValuesContractTest {

    /** The color the healing test strips of its padding. */
    private static final String NAME = "tomato";

    /** How long a module that keeps a copy may take to learn of the test's write and heal it. */
    private static final Duration HEALED = Duration.ofSeconds(10);

    private final String layout = buildInfo("build.layout");

    private RedisClient redisClient;

    private StatefulRedisConnection<String, String> redis;

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void storeUrls(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.url", TestRedis::url);
        registry.add("spring.datasource.url", TestPostgres::jdbcUrl);
    }

    @BeforeAll
    void thePaletteIsPadded() {
        assertThat(Palette.valueBytes()).as("-D%s, set by the padded-values execution", Palette.VALUE_BYTES_PROPERTY).isPresent();
        assertThat(Palette.all()).allSatisfy(color -> assertThat(ColorJson.of(color)).hasSize(Palette.valueBytes().orElseThrow()));
        // a cold JVM's first reads can pass the module's 500 ms command time-out on a busy machine, and a module answers that
        // with a 503 by design (docs/failure-behaviour.md): the contract starts from a module that has answered once, as the copies' does
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> get("/colors").statusCode() == 200);
        if (!layout.equals("none") && !layout.equals("table")) {
            redisClient = RedisClient.create(TestRedis.url());
            redis = redisClient.connect();
        }
    }

    @AfterAll
    void disconnect() {
        if (redis != null) {
            redis.close();
            redisClient.shutdown();
        }
    }

    @Test
    void answersThePaddedPaletteByteForByte() {
        HttpResponse<String> all = get("/colors");
        assertThat(all.statusCode()).isEqualTo(200);
        assertThat(all.body()).isEqualTo(ColorJson.palette());
        assertThat(get("/colors/" + NAME).body()).isEqualTo(ColorJson.of(color(NAME)));
        assertThat(get("/colors?names=teal," + NAME + ",teal").body()).isEqualTo(ColorJson.of(Palette.colors(List.of("teal", NAME, "teal"))));
    }

    @Test
    void theStoreHoldsEveryColorWithItsPadding() {
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());
        switch (layout) {
            case "none" -> {
            }
            case "palette-string" -> assertThat(redis().get(ColorKeys.paletteCacheKey())).isEqualTo(ColorJson.palette());
            case "table" -> assertThat(table()).isEqualTo(Palette.all());
            default -> Palette.names().forEach(name -> assertThat(stored(name)).as(name).isEqualTo(expected(name)));
        }
    }

    @Test
    void aValueStoredWithoutItsPaddingIsAnsweredFromThePaletteAndWrittenAgain() {
        if (layout.equals("none") || layout.equals("table")) {
            return; // nothing stored to heal: memory, or the table, whose rows the migration writes
        }
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());
        Color unpadded = color(NAME).withPadding(null);
        switch (layout) {
            case "json-strings" -> redis().set(ColorKeys.jsonKey(NAME), ColorJson.of(unpadded));
            case "cache-strings" -> redis().set(ColorKeys.cacheKey(NAME), ColorJson.of(unpadded));
            case "palette-hash" -> redis().hset(ColorKeys.PALETTE_HASH, NAME, ColorJson.of(unpadded));
            case "repository-hashes" -> redis().hdel(ColorKeys.hashKey(NAME), "padding");
            case "palette-string" -> redis().set(ColorKeys.paletteCacheKey(),
                    ColorJson.of(Palette.all().stream().map(color -> color.withPadding(null)).toList()));
            default -> fail("unknown layout %s", layout);
        }
        long deadline = System.nanoTime() + HEALED.toNanos();
        while (true) {
            HttpResponse<String> response = get("/colors");
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            assertThat(response.body()).isEqualTo(ColorJson.palette());
            boolean healed = layout.equals("palette-string") ? ColorJson.palette().equals(redis().get(ColorKeys.paletteCacheKey()))
                    : expected(NAME).equals(stored(NAME));
            if (healed) {
                break;
            }
            if (System.nanoTime() > deadline) {
                fail("%s is still stored without its padding %s after the reads", NAME, HEALED);
            }
            sleep();
        }
        assertThat(get("/colors/" + NAME).body()).isEqualTo(ColorJson.of(color(NAME)));
    }

    /** What the module's layout holds for {@code name}: its JSON where a color is a JSON string, else the color its hash's fields make. */
    private Object stored(String name) {
        return switch (layout) {
            case "json-strings" -> redis().get(ColorKeys.jsonKey(name));
            case "cache-strings" -> redis().get(ColorKeys.cacheKey(name));
            case "palette-hash" -> redis().hget(ColorKeys.PALETTE_HASH, name);
            case "repository-hashes" -> {
                Map<String, String> fields = redis().hgetall(ColorKeys.hashKey(name));
                yield fields.isEmpty() ? null : new Color(fields.get("name"), fields.get("hex"), Integer.parseInt(fields.get("red")),
                        Integer.parseInt(fields.get("green")), Integer.parseInt(fields.get("blue")), fields.get("padding"));
            }
            default -> throw new IllegalStateException("no single stored color in layout " + layout);
        };
    }

    /** What {@link #stored} must find for the palette's color {@code name}. */
    private Object expected(String name) {
        return layout.equals("repository-hashes") ? color(name) : ColorJson.of(color(name));
    }

    private static List<Color> table() {
        try (Connection connection = TestPostgres.connect();
                PreparedStatement select = connection.prepareStatement("SELECT name, hex, red, green, blue, padding FROM colorbench.colors ORDER BY name");
                ResultSet rows = select.executeQuery()) {
            List<Color> colors = new ArrayList<>();
            while (rows.next()) {
                colors.add(new Color(rows.getString(1), rows.getString(2), rows.getInt(3), rows.getInt(4), rows.getInt(5), rows.getString(6)));
            }
            return colors;
        }
        catch (SQLException ex) {
            throw new IllegalStateException("Cannot read colorbench.colors", ex);
        }
    }

    private RedisCommands<String, String> redis() {
        return redis.sync();
    }

    private static Color color(String name) {
        return Palette.find(name).orElseThrow();
    }

    private HttpResponse<String> get(String pathAndQuery) {
        return LocalHttp.get(port, pathAndQuery);
    }

    private static void sleep() {
        try {
            Thread.sleep(50);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    /** A property of the module's build-info: how it describes itself to the benchmark. */
    private static String buildInfo(String key) {
        try (InputStream in = PaddedValuesContractTest.class.getResourceAsStream("/META-INF/build-info.properties")) {
            if (in == null) {
                throw new IllegalStateException("No META-INF/build-info.properties: a module's build writes it (modules/pom.xml)");
            }
            Properties properties = new Properties();
            properties.load(in);
            return Objects.requireNonNull(properties.getProperty(key), key);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
