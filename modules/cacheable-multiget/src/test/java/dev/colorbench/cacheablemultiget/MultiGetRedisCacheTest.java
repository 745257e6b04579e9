package dev.colorbench.cacheablemultiget;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.colorbench.core.cache.MultiGetRedisCache;
import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.testkit.TestRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.cache.Cache.ValueWrapper;
import org.springframework.cache.CacheManager;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheWriter;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * color-core's bulk extension of the cache, on the application's own cache: the bulk methods and
 * the single-key ones ({@code get} and {@code put}, what {@code @Cacheable} calls, and so what
 * cacheable-loop writes) read and write the same keys with the same bytes.
 */
@SpringBootTest(webEnvironment = WebEnvironment.NONE)
class MultiGetRedisCacheTest {

    private static final Color RED = Palette.find("red").orElseThrow();

    private static final Color TEAL = Palette.find("teal").orElseThrow();

    private static RedisClient redisClient;

    private static StatefulRedisConnection<String, String> redis;

    @Autowired
    private CacheManager cacheManager;

    @Autowired
    private RedisCacheConfiguration cacheConfiguration;

    @Autowired
    private RedisConnectionFactory connectionFactory;

    @DynamicPropertySource
    static void redisUrl(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.url", TestRedis::url);
    }

    @BeforeAll
    static void connect() {
        redisClient = RedisClient.create(TestRedis.url());
        redis = redisClient.connect();
    }

    @AfterAll
    static void disconnect() {
        redis.close();
        redisClient.shutdown();
    }

    @Test
    void theSingleKeyPathAndTheBulkMethodsShareKeysAndBytes() {
        MultiGetRedisCache cache = colorCache();

        cache.put("red", RED);
        String putBySingleKey = redis.sync().get(ColorKeys.cacheKey("red"));
        cache.putAll(Map.of("red", RED, "teal", TEAL));

        assertThat(redis.sync().get(ColorKeys.cacheKey("red"))).isEqualTo(putBySingleKey);
        assertThat(cache.get("teal", Color.class)).isEqualTo(TEAL);
        MultiGetRedisCache.Found found = cache.getAll(List.of("teal", "red", "teal"));
        assertThat(found.values()).extracting(ValueWrapper::get).containsExactly(TEAL, RED, TEAL);
        assertThat(found.unreadable()).isEmpty();
    }

    @Test
    void entriesThatExpireAreWrittenWithTheirTimeToLive() {
        MultiGetRedisCache expiring = new MultiGetRedisCache(ColorKeys.CACHE_NAME,
                RedisCacheWriter.create(connectionFactory, writer -> writer.immediateWrites()), cacheConfiguration.entryTtl(Duration.ofMinutes(5)));
        try {
            expiring.putAll(Map.of("red", RED, "teal", TEAL));

            assertThat(redis.sync().pttl(ColorKeys.cacheKey("red"))).isPositive();
            assertThat(redis.sync().pttl(ColorKeys.cacheKey("teal"))).isPositive();
            assertThat(colorCache().getAll(List.of("red", "teal")).values()).extracting(ValueWrapper::get).containsExactly(RED, TEAL);
        }
        finally {
            colorCache().putAll(Map.of("red", RED, "teal", TEAL));
        }
        assertThat(redis.sync().pttl(ColorKeys.cacheKey("red"))).as("written again without one").isEqualTo(-1);
    }

    private MultiGetRedisCache colorCache() {
        return (MultiGetRedisCache) cacheManager.getCache(ColorKeys.CACHE_NAME);
    }
}
