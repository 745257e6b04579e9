package dev.colorbench.testkit;

import java.util.UUID;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.AfterAll;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link OutageContractTest} for a Redis-backed module, on a password-protected
 * {@link EmbeddedRedis} of its own. Redis comes back empty (it keeps nothing on disk), so the module
 * must write its keys again on the first read; a stall is {@code CLIENT PAUSE 2000 ALL}, which the module
 * answers with a 503 at its 500 ms command timeout. Each module has a one-line subclass.
 */
public abstract class RedisOutageContractTest extends OutageContractTest {

    private static final String PASSWORD = "pw-" + UUID.randomUUID();

    private static final EmbeddedRedis REDIS = EmbeddedRedis.notStarted(PASSWORD);

    @DynamicPropertySource
    static void redisUrl(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.url", REDIS::url);
    }

    @AfterAll
    static void stopRedis() {
        REDIS.stop();
    }

    @Override
    protected void startStore() {
        REDIS.startServer();
    }

    @Override
    protected void stopStore() {
        REDIS.stop();
    }

    @Override
    protected String password() {
        return PASSWORD;
    }

    /**
     * {@code CLIENT PAUSE 2000 ALL} on a connection of the test's own: Redis holds every client's commands for 2 s, as a
     * stalled server would. Unlike {@code DEBUG SLEEP}, every current Redis and Valkey allows it by default. Ending the
     * stall waits for a PING, which Redis answers once the pause is over.
     */
    @Override
    protected Stall stall() {
        RedisClient client = RedisClient.create(REDIS.url());
        StatefulRedisConnection<String, String> connection = client.connect();
        connection.sync().dispatch(CommandType.CLIENT, new StatusOutput<>(StringCodec.UTF8),
                new CommandArgs<>(StringCodec.UTF8).add("PAUSE").add(2000).add("ALL"));
        return () -> {
            try {
                connection.sync().ping();
            }
            finally {
                connection.close();
                client.shutdown();
            }
        };
    }
}
