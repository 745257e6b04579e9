package dev.colorbench.testkit.copy;

import java.net.http.HttpResponse;
import java.time.Duration;

import dev.colorbench.testkit.EmbeddedRedis;
import dev.colorbench.testkit.LocalHttp;
import io.lettuce.core.RedisClient;
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

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A copy's Redis going away, coming back empty, and stalling, on an embedded Redis of the test's own (never the one in
 * {@code REDIS_URL}): a 503 problem within a second while it is away or stalled, and the whole palette again within 5 s
 * of its return, written back from the application's own source. Each Redis copy has a one-line subclass.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@DirtiesContext
@TestMethodOrder(OrderAnnotation.class)
public abstract class CopyRedisOutageTest {

    private static final Duration RECOVERY = Duration.ofSeconds(5);

    private static final EmbeddedRedis REDIS = EmbeddedRedis.notStarted(null);

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void redisUrl(DynamicPropertyRegistry registry) {
        REDIS.startServer();
        registry.add("spring.data.redis.url", REDIS::url);
    }

    @AfterAll
    static void stopRedis() {
        REDIS.stop();
    }

    /**
     * Whether the copy answers from a local copy that Redis invalidates (a near cache): until it notices that Redis is
     * gone, by losing the connection its invalidations arrive on, it may answer from that copy, and must answer right.
     */
    protected boolean answersFromALocalCopy() {
        return false;
    }

    /** Within 5 s of starting: the client connects on the first request, which a loaded machine can make slower than its time-out. */
    @Test
    @Order(10)
    void servesThePalette() {
        await().atMost(RECOVERY).pollInterval(Duration.ofMillis(50)).untilAsserted(
                () -> assertThat(CopyHttp.get(port, "/colors").body()).isEqualTo(CopyHttp.palette()));
    }

    @Test
    @Order(20)
    void aStoppedRedisIsA503WithinASecond() {
        REDIS.stop();
        if (answersFromALocalCopy()) {
            LocalHttp.untilNoLongerFromTheCopy(path -> CopyHttp.get(port, path), "/colors", CopyHttp.FAST_FAILURE, CopyHttp.palette());
        }

        CopyHttp.assertFast503(port, "/colors");
        CopyHttp.assertFast503(port, "/colors");
    }

    @Test
    @Order(30)
    void servesThePaletteWithin5SecondsOfRedisReturningEmpty() {
        REDIS.startServer();

        await().atMost(RECOVERY).pollInterval(Duration.ofMillis(50)).untilAsserted(
                () -> assertThat(CopyHttp.get(port, "/colors").body()).isEqualTo(CopyHttp.palette()));
    }

    @Test
    @Order(40)
    void aStalledRedisIsA503AtItsTimeoutThenServesAgain() {
        RedisClient client = RedisClient.create(REDIS.url());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            // Redis holds every client's commands for 2 s, as a stalled server would; every current Redis and Valkey allows it.
            connection.sync().dispatch(CommandType.CLIENT, new StatusOutput<>(StringCodec.UTF8),
                    new CommandArgs<>(StringCodec.UTF8).add("PAUSE").add(2000).add("ALL"));
            HttpResponse<String> fromTheCopy = answersFromALocalCopy() ? CopyHttp.get(port, "/colors") : null;
            if (fromTheCopy == null || fromTheCopy.statusCode() != 200) {
                CopyHttp.assertFast503(port, "/colors");
            }
            else {
                assertThat(fromTheCopy.body()).isEqualTo(CopyHttp.palette());
            }
            connection.sync().ping();
        }
        finally {
            client.shutdown();
        }
        await().atMost(RECOVERY).pollInterval(Duration.ofMillis(50)).untilAsserted(
                () -> assertThat(CopyHttp.get(port, "/colors").body()).isEqualTo(CopyHttp.palette()));
    }
}
