package dev.colorbench.core;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a Redis-backed module does when Redis is not there, goes away, comes back empty or
 * stalls. The test owns its Redis (never the one in {@code REDIS_URL}): it starts the module
 * before Redis exists, then starts, kills and restarts it on the same port. The server
 * requires a password, which must then appear in no log line and no endpoint.
 * Each module has a one-line subclass; the steps run in order, as one story.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@DirtiesContext
@TestMethodOrder(OrderAnnotation.class)
@ExtendWith(OutputCaptureExtension.class)
public abstract class RedisOutageContractTest {

    /** The most a request may take to fail while Redis is away or stalled. */
    private static final Duration FAST_FAILURE = Duration.ofSeconds(1);

    /** How soon a module must serve again after Redis returns. */
    private static final Duration RECOVERY = Duration.ofSeconds(5);

    private static final String PASSWORD = "pw-" + UUID.randomUUID();

    private static final EmbeddedRedis REDIS = EmbeddedRedis.notStarted(PASSWORD);

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void redisUrl(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.url", REDIS::url);
    }

    @AfterAll
    static void stopRedis() {
        REDIS.stop();
    }

    @Test
    @Order(1)
    void startsWithoutRedisAliveButNotReadyAndAnswers503Fast() {
        assertThat(get("/actuator/health/liveness").statusCode()).isEqualTo(200);
        assertThat(get("/actuator/health/readiness").statusCode()).isEqualTo(503);
        assertThat(get("/colors").statusCode()).as("the first request, which also loads the Redis client").isEqualTo(503);
        assertFast503("/colors");
    }

    @Test
    @Order(2)
    void becomesReadyAndServesTheWholePaletteOnceRedisAppears() {
        REDIS.startServer();

        awaitWithinRecovery("/actuator/health/readiness", response -> response.statusCode() == 200);
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());
    }

    @Test
    @Order(3)
    void aRedisOutageIsA503WithinASecond() {
        get("/colors");
        REDIS.stop();

        assertFast503("/colors");
        assertFast503("/colors?names=red,blue");
        assertThat(get("/actuator/health/readiness").statusCode()).isEqualTo(503);
        assertThat(get("/actuator/health/liveness").statusCode()).isEqualTo(200);
    }

    @Test
    @Order(4)
    void servesTheWholePaletteWithin5SecondsOfRedisReturningEmpty() {
        REDIS.startServer();

        HttpResponse<String> served = awaitWithinRecovery("/colors", response -> response.statusCode() == 200);

        assertThat(served.body()).isEqualTo(ColorJson.palette());
        assertThat(get("/colors?names=teal,red").body()).isEqualTo(ColorJson.of(Palette.colors(List.of("teal", "red"))));
    }

    @Test
    @Order(5)
    void aStalledRedisIsA503AtTheCommandTimeoutThenServesAgain() throws Exception {
        RedisClient client = RedisClient.create(REDIS.url());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisFuture<String> stall = connection.async().dispatch(CommandType.DEBUG, new StatusOutput<>(StringCodec.UTF8),
                    new CommandArgs<>(StringCodec.UTF8).add("SLEEP").add(2));
            Thread.sleep(100);

            assertFast503("/colors");

            stall.get();
        }
        finally {
            client.shutdown();
        }
        HttpResponse<String> served = awaitWithinRecovery("/colors", response -> response.statusCode() == 200);
        assertThat(served.body()).isEqualTo(ColorJson.palette());
    }

    @Test
    @Order(6)
    void thePasswordAppearsInNoLogLineAndNoEndpoint(CapturedOutput output) {
        REDIS.stop();
        get("/colors");
        REDIS.startServer();
        awaitWithinRecovery("/colors", response -> response.statusCode() == 200);

        for (String path : new String[] { "/actuator", "/actuator/health", "/actuator/info", "/actuator/env",
                "/actuator/configprops", "/actuator/heapdump" }) {
            assertThat(get(path).body()).as(path).doesNotContain(PASSWORD);
        }
        assertThat(get("/actuator/env").statusCode()).isEqualTo(404);
        assertThat(get("/actuator/configprops").statusCode()).isEqualTo(404);
        assertThat(output.getAll()).doesNotContain(PASSWORD);
    }

    /** A request that must be refused with a 503 problem, within {@link #FAST_FAILURE}. */
    private void assertFast503(String path) {
        long started = System.nanoTime();
        HttpResponse<String> response = get(path);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(took).as("GET %s took %s", path, took).isLessThanOrEqualTo(FAST_FAILURE);
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.body()).contains("\"status\":503").doesNotContain("Exception").doesNotContain(PASSWORD);
    }

    private HttpResponse<String> awaitWithinRecovery(String path, Predicate<HttpResponse<String>> ready) {
        long deadline = System.nanoTime() + RECOVERY.toNanos();
        HttpResponse<String> response = get(path);
        while (!ready.test(response) && System.nanoTime() < deadline) {
            assertThat(response.statusCode()).as("while recovering, %s answers 503, never a wrong 200", path).isIn(200, 503);
            sleep(50);
            response = get(path);
        }
        assertThat(ready.test(response)).as("%s recovered within %s; last answer %s %s", path, RECOVERY,
                response.statusCode(), response.body()).isTrue();
        return response;
    }

    /** A GET that must answer at all, whatever state Redis is in: no request may hang. */
    private HttpResponse<String> get(String path) {
        return LocalHttp.get(port, path);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
