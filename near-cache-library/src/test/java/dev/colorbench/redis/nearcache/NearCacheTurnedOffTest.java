package dev.colorbench.redis.nearcache;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import dev.colorbench.testkit.EmbeddedRedis;
import dev.colorbench.testkit.RedisCommandStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code redis.near-cache.enabled=false} switches the library off before it checks anything: an
 * application on Jedis, or with no prefixes, starts, and each read of a cache is one MGET of Redis.
 * On a real Redis, through Spring Boot's auto-configuration.
 */
class NearCacheTurnedOffTest {

    private static EmbeddedRedis redis;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, NearCacheAutoConfiguration.class));

    @BeforeAll
    static void startRedis() {
        redis = EmbeddedRedis.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.stop();
    }

    @Test
    void anApplicationOnJedisStartsAndReadsRedisEachTime() {
        runner.withPropertyValues("spring.data.redis.url=" + redis.url(), "spring.data.redis.client-type=jedis", "redis.near-cache.enabled=false")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(RedisConnectionFactory.class)).isInstanceOf(JedisConnectionFactory.class);
                    assertReadsRedisEachTime(context.getBean(NearCacheTracking.class), context.getBean(RedisConnectionFactory.class));
                });
    }

    @Test
    void anApplicationOnLettuceWithNoPrefixesStartsAndReadsRedisEachTime() {
        runner.withPropertyValues("spring.data.redis.url=" + redis.url(), "redis.near-cache.enabled=false").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(RedisConnectionFactory.class)).isInstanceOf(LettuceConnectionFactory.class);
            assertReadsRedisEachTime(context.getBean(NearCacheTracking.class), context.getBean(RedisConnectionFactory.class));
        });
    }

    private static void assertReadsRedisEachTime(NearCacheTracking tracking, RedisConnectionFactory connectionFactory) {
        assertThat(tracking.isEnabled()).isFalse();
        assertThat(tracking.isActive()).isFalse();
        assertThat(tracking.servers()).isEmpty();
        StringRedisTemplate writer = new StringRedisTemplate(connectionFactory);
        writer.opsForValue().set("off::a", "one");
        NearCache<String> cache = tracking.newCache("off", (key, stored) -> new String(stored, StandardCharsets.UTF_8));
        try (RedisCommandStats stats = RedisCommandStats.connect(redis.url())) {
            for (int read = 0; read < 2; read++) {
                Map<String, Long> commands = stats.during(() -> assertThat(cache.getAll(List.of("off::a", "off::missing")).values())
                        .containsExactly("one", null));
                assertThat(commands).as("read %d", read).isEqualTo(Map.of("mget", 1L));
            }
        }
        finally {
            cache.close();
            writer.delete("off::a");
        }
    }
}
