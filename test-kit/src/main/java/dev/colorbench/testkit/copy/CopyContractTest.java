package dev.colorbench.testkit.copy;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import dev.colorbench.testkit.RedisCommandStats;
import dev.colorbench.testkit.TestPostgres;
import dev.colorbench.testkit.TestRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
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
import static org.awaitility.Awaitility.await;

/**
 * What a pattern's standalone copy promises about reading its store, against the test Redis (or PostgreSQL): the whole
 * palette byte for byte, and a color that is missing, unreadable or of another type in Redis answered right and written
 * back. Each copy
 * has a one-line subclass naming where it keeps a color ({@link StoredColor}), or none for a copy that reads no Redis.
 * The checks of names (400 and 404) are the modules' contract, not the copies'.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@TestInstance(Lifecycle.PER_CLASS)
public abstract class CopyContractTest {

    private final StoredColor stored;

    private final Map<String, Long> warmRead;

    @LocalServerPort
    private int port;

    private RedisClient client;

    private StatefulRedisConnection<String, String> connection;

    /** @param stored where the copy keeps a color in Redis; null for a copy that reads no Redis */
    protected CopyContractTest(StoredColor stored) {
        this(stored, null);
    }

    /**
     * @param stored where the copy keeps a color in Redis
     * @param warmRead the Redis commands a warm {@code GET /colors} sends, by name, as its module's README and contract
     * test count them: the copy does the same work as the module whose figures its README shows
     */
    protected CopyContractTest(StoredColor stored, Map<String, Long> warmRead) {
        this.stored = stored;
        this.warmRead = warmRead;
    }

    @DynamicPropertySource
    static void storeUrls(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.url", TestRedis::url);
        registry.add("spring.datasource.url", TestPostgres::jdbcUrl);
    }

    /**
     * Waits for the copy's first answer: its client connects on the first request, which on a loaded machine can take
     * longer than the connect time-out and be answered with a 503 (CopyRedisOutageTest checks those).
     */
    @BeforeAll
    void connect() {
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> CopyHttp.get(port, "/colors").statusCode() == 200);
        if (stored != null) {
            client = RedisClient.create(TestRedis.url());
            connection = client.connect();
        }
    }

    @AfterAll
    void disconnect() {
        if (client != null) {
            connection.close();
            client.shutdown();
        }
    }

    @Test
    void servesTheWholePaletteByteForByte() {
        HttpResponse<String> response = CopyHttp.get(port, "/colors");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
        assertThat(response.body()).isEqualTo(CopyHttp.palette());
    }

    /** Within 2 s: a copy that keeps a local copy reads again what the other tests' writes invalidated. */
    @Test
    void aWarmReadSendsTheModulesCommands() {
        Assumptions.assumeTrue(warmRead != null, "no commands given");
        try (RedisCommandStats stats = RedisCommandStats.connect(TestRedis.url())) {
            await().atMost(Duration.ofSeconds(2)).untilAsserted(() -> assertThat(
                    stats.during(() -> assertThat(CopyHttp.get(port, "/colors").statusCode()).isEqualTo(200)))
                    .as("the Redis commands of a warm GET /colors").isEqualTo(warmRead));
        }
    }

    @Test
    void aMissingColorIsAnsweredAndWrittenBack() {
        assertHealed((redis, name) -> stored.remove(redis, name));
    }

    @Test
    void anUnreadableColorIsAnsweredAndWrittenBack() {
        assertHealed((redis, name) -> stored.corrupt(redis, name));
    }

    @Test
    void aKeyOfAnotherTypeIsAnsweredAndWrittenOver() {
        Assumptions.assumeTrue(stored != null, "the copy reads no Redis");
        assertHealed((redis, name) -> Assumptions.assumeTrue(stored.replaceWithAnotherType(redis, name), "no key of the color's own"));
    }

    private void assertHealed(Spoil spoil) {
        Assumptions.assumeTrue(stored != null, "the copy reads no Redis");
        RedisCommands<String, String> redis = connection.sync();
        assertThat(CopyHttp.get(port, "/colors").body()).isEqualTo(CopyHttp.palette());
        String before = stored.read(redis, "teal");
        assertThat(before).as("what Redis holds for teal once the palette was read").isNotNull();

        spoil.apply(redis, "teal");

        // A copy that keeps a local copy reads Redis again once the invalidation has reached it, within a few ms.
        await().atMost(Duration.ofSeconds(2)).untilAsserted(() -> {
            HttpResponse<String> response = CopyHttp.get(port, "/colors");
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo(CopyHttp.palette());
            assertThat(stored.read(redis, "teal")).as("teal in Redis after a read").isEqualTo(before);
        });
    }

    @FunctionalInterface
    private interface Spoil {

        void apply(RedisCommands<String, String> redis, String name);
    }
}
