package dev.colorbench.testkit;

import java.util.UUID;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
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
 * must write its keys again on the first read; a stall is {@code DEBUG SLEEP 2}, which the module
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

    /** {@code DEBUG SLEEP 2} on a connection of the test's own; ending the stall waits for Redis to wake. */
    @Override
    protected Stall stall() throws InterruptedException {
        RedisClient client = RedisClient.create(REDIS.url());
        StatefulRedisConnection<String, String> connection = client.connect();
        RedisFuture<String> sleeping = connection.async().dispatch(CommandType.DEBUG, new StatusOutput<>(StringCodec.UTF8),
                new CommandArgs<>(StringCodec.UTF8).add("SLEEP").add(2));
        Thread.sleep(100);
        return () -> {
            try {
                sleeping.get();
            }
            finally {
                connection.close();
                client.shutdown();
            }
        };
    }
}
