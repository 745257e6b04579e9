package dev.colorbench.redis.nearcache;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

import dev.colorbench.testkit.EmbeddedRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Redis not there when the application starts: every read fails fast and nothing is cached, the first
 * tracking connection is retried on the client's back-off, and once Redis is there the cache answers
 * from its copy and sees the next write. Without Spring Boot: the tracking made by hand on a
 * connection factory, as an application without auto-configuration would.
 */
class NearCacheStartupTest {

    private static final Duration WITHIN = Duration.ofSeconds(5);

    @Test
    void tracksOnceRedisIsThereAfterStartUp() throws InterruptedException {
        EmbeddedRedis redis = EmbeddedRedis.notStarted(null);
        LettuceConnectionFactory connectionFactory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration("127.0.0.1", URI.create(redis.url()).getPort()));
        connectionFactory.afterPropertiesSet();
        connectionFactory.start();
        NearCacheProperties properties = new NearCacheProperties();
        properties.setPrefixes(List.of("start::"));
        NearCacheTracking tracking = new NearCacheTracking(connectionFactory, properties);
        NearCache<String> cache = tracking.newCache("strings", (key, stored) -> new String(stored, StandardCharsets.UTF_8));
        tracking.start();
        try {
            Thread.sleep(300);
            assertThat(tracking.isActive()).as("tracking without Redis").isFalse();
            assertThatThrownBy(() -> cache.getAll(List.of("start::a"))).isInstanceOf(DataAccessException.class);

            redis.startServer();
            RedisClient writerClient = RedisClient.create(redis.url());
            try (StatefulRedisConnection<String, String> writer = writerClient.connect()) {
                await(tracking::isActive, "tracking once Redis is there");
                // written once Redis tracks: its invalidation is in before the read, which nothing can then refuse
                long invalidations = tracking.invalidations();
                writer.sync().set("start::a", "one");
                await(() -> tracking.invalidations() > invalidations, "the first write's invalidation");
                assertThat(cache.getAll(List.of("start::a")).values()).containsExactly("one");
                assertThat(cache.getIfPresent("start::a")).as("kept").isEqualTo("one");

                writer.sync().set("start::a", "two");
                await(() -> cache.getIfPresent("start::a") == null, "the write's invalidation");
                assertThat(cache.getAll(List.of("start::a")).values()).containsExactly("two");
                assertThat(tracking.sessions()).isEqualTo(1);
            }
            finally {
                writerClient.shutdown();
            }
        }
        finally {
            tracking.stop();
            connectionFactory.destroy();
            redis.stop();
        }
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + WITHIN.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("%s within %s", what, WITHIN).isLessThan(deadline);
            Thread.sleep(10);
        }
    }
}
