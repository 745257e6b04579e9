package dev.colorbench.redis.nearcache;

import java.time.Duration;

import dev.colorbench.testkit.FreePorts;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration;
import org.springframework.boot.cache.autoconfigure.RedisCacheManagerBuilderCustomizer;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.concurrent.ConcurrentMapCacheManager;
import org.springframework.cache.support.NoOpCacheManager;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.cache.RedisCacheWriter.TtlFunction;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;
import org.springframework.data.redis.serializer.RedisSerializer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How an application turns the near cache manager on, and what it refuses at start-up, naming the
 * setting: a cache whose keys the tracked prefixes do not cover (named by a caching annotation, or in
 * {@code spring.cache.cache-names}), time-to-idle, keys not written as strings, a time-to-live while
 * TTLs are not read. Spring Boot's own {@code RedisCacheManager} stays without the property, and
 * another {@code spring.cache.type} wins. No Redis: the refusals come before any connection, and the
 * contexts that start are closed before the tracking would answer. Where the case is not the prefixes,
 * the near cache is turned off, so that nothing tries to connect.
 */
class NearCacheManagerStartupTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, NearCacheAutoConfiguration.class,
                    NearCacheManagerAutoConfiguration.class, CacheAutoConfiguration.class))
            .withPropertyValues("spring.data.redis.url=redis://127.0.0.1:" + FreePorts.loopback(), "redis.near-cache.prefixes=items::",
                    "redis.near-cache.cache-manager.enabled=true");

    /** An application with a {@code @Cacheable} method of the cache {@code orders}. */
    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    static class Orders {

        @Bean
        OrderService orderService() {
            return new OrderService();
        }
    }

    static class OrderService {

        @Cacheable("orders")
        public String find(String id) {
            return id;
        }
    }

    /** Caching on, and no caching annotation. */
    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    static class NoAnnotations {
    }

    @Test
    void aCacheAnAnnotationNamesOutsideThePrefixesStopsTheStart() {
        runner.withUserConfiguration(Orders.class).run(context -> {
            InvalidConfigurationPropertyValueException refusal = refusal(context, InvalidConfigurationPropertyValueException.class);
            assertThat(refusal.getName()).isEqualTo("redis.near-cache.prefixes");
            assertThat(refusal.getMessage()).contains("The cache 'orders'", "'orders::'");
        });
    }

    @Test
    void aCacheOfTheCacheNamesPropertyOutsideThePrefixesStopsTheStart() {
        runner.withUserConfiguration(NoAnnotations.class).withPropertyValues("spring.cache.cache-names=items,orders").run(context -> {
            InvalidConfigurationPropertyValueException refusal = refusal(context, InvalidConfigurationPropertyValueException.class);
            assertThat(refusal.getName()).isEqualTo("redis.near-cache.prefixes");
            assertThat(refusal.getMessage()).contains("'orders::'");
        });
    }

    /** Spring Boot's {@code spring.cache.redis.key-prefix} makes the key prefix {@code app::<cache name>::}: that is what the prefixes must cover. */
    @Test
    void theKeyPrefixOfSpringBootsSettingsIsTheOneChecked() {
        runner.withUserConfiguration(Orders.class).withPropertyValues("spring.cache.redis.key-prefix=app::").run(context -> {
            assertThat(refusal(context, InvalidConfigurationPropertyValueException.class).getMessage()).contains("'app::orders::'");
        });
        runner.withUserConfiguration(Orders.class).withPropertyValues("spring.cache.redis.key-prefix=app::", "redis.near-cache.prefixes=app::")
                .run(context -> {
                    assertThat(context).hasNotFailed().getBean(CacheManager.class).isInstanceOf(NearCacheManager.class);
                    NearRedisCache orders = context.getBean(NearCacheManager.class).getNearCache("orders");
                    assertThat(orders.getCacheConfiguration().getKeyPrefixFor("orders")).isEqualTo("app::orders::");
                    assertThat(context.getBean(NearCacheTracking.class).caches()).extracting(NearCache::name).containsExactly("orders");
                });
    }

    @Test
    void keysWithoutAPrefixAreRefused() {
        runner.withUserConfiguration(Orders.class).withPropertyValues("spring.cache.redis.use-key-prefix=false", "redis.near-cache.prefixes=orders")
                .run(context -> assertThat(refusal(context, InvalidConfigurationPropertyValueException.class).getMessage())
                        .contains("spring.cache.redis.use-key-prefix=false"));
    }

    @Test
    void timeToIdleAndKeysNotWrittenAsStringsAreRefused() {
        RedisCacheConfiguration idle = RedisCacheConfiguration.defaultCacheConfig().entryTtl(Duration.ofMinutes(1)).enableTimeToIdle();
        @SuppressWarnings({ "unchecked", "rawtypes" })
        SerializationPair<String> javaSerialization = (SerializationPair) SerializationPair.fromSerializer(RedisSerializer.java());
        RedisCacheConfiguration javaKeys = RedisCacheConfiguration.defaultCacheConfig().serializeKeysWith(javaSerialization);

        runner.withUserConfiguration(Orders.class).withPropertyValues("redis.near-cache.prefixes=orders::")
                .withBean(RedisCacheConfiguration.class, () -> idle)
                .run(context -> assertThat(refusal(context, IllegalStateException.class).getMessage()).contains("enableTimeToIdle"));
        runner.withUserConfiguration(Orders.class).withPropertyValues("redis.near-cache.prefixes=orders::")
                .withBean(RedisCacheConfiguration.class, () -> javaKeys)
                .run(context -> assertThat(refusal(context, IllegalStateException.class).getMessage()).contains("serializeKeysWith"));
    }

    @Test
    void aTimeToLiveWhileTtlsAreNotReadIsRefused() {
        runner.withUserConfiguration(Orders.class)
                .withPropertyValues("redis.near-cache.prefixes=orders::", "redis.near-cache.read-ttl=false", "spring.cache.redis.time-to-live=1m")
                .run(context -> assertThat(refusal(context, InvalidConfigurationPropertyValueException.class).getName())
                        .isEqualTo("redis.near-cache.read-ttl"));
        runner.withUserConfiguration(Orders.class)
                .withPropertyValues("redis.near-cache.prefixes=orders::", "redis.near-cache.read-ttl=false", "redis.near-cache.enabled=false")
                .run(context -> assertThat(context).as("no time-to-live").hasNotFailed());
    }

    /** What a {@link RedisCacheManagerBuilderCustomizer} sets for Spring Boot's manager, a cache's own configuration and no caches on demand, holds here. */
    @Test
    void theBuilderCustomizersApply() {
        RedisCacheManagerBuilderCustomizer customizer = builder -> builder.disableCreateOnMissingCache()
                .withCacheConfiguration("orders", builder.cacheDefaults().entryTtl(Duration.ofMinutes(5)));

        runner.withUserConfiguration(Orders.class).withPropertyValues("redis.near-cache.prefixes=orders::", "redis.near-cache.enabled=false")
                .withBean(RedisCacheManagerBuilderCustomizer.class, () -> customizer).run(context -> {
                    NearCacheManager manager = context.getBean(NearCacheManager.class);
                    assertThat(manager.getNearCache("orders").getCacheConfiguration().getTtlFunction())
                            .isEqualTo(TtlFunction.just(Duration.ofMinutes(5)));
                    assertThat(manager.getCache("elsewhere")).as("a cache not configured, none made on demand").isNull();
                });
    }

    @Test
    void withoutThePropertySpringBootsRedisCacheManagerStays() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, NearCacheAutoConfiguration.class,
                        NearCacheManagerAutoConfiguration.class, CacheAutoConfiguration.class))
                .withPropertyValues("spring.data.redis.url=redis://127.0.0.1:" + FreePorts.loopback(), "redis.near-cache.prefixes=items::",
                        "redis.near-cache.enabled=false")
                .withUserConfiguration(Orders.class)
                .run(context -> assertThat(context).hasNotFailed().getBean(CacheManager.class).isExactlyInstanceOf(RedisCacheManager.class));
    }

    @Test
    void anotherCacheTypeWins() {
        runner.withUserConfiguration(Orders.class).withPropertyValues("spring.cache.type=none", "redis.near-cache.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().getBean(CacheManager.class).isInstanceOf(NoOpCacheManager.class));
        runner.withUserConfiguration(Orders.class).withPropertyValues("spring.cache.type=simple", "redis.near-cache.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().getBean(CacheManager.class).isInstanceOf(ConcurrentMapCacheManager.class));
    }

    /** Turned off, the near cache tracks nothing, so there is nothing to cover: as the tracking's own checks, the prefixes' is skipped. */
    @Test
    void aTurnedOffNearCacheChecksNoPrefix() {
        runner.withUserConfiguration(Orders.class).withPropertyValues("redis.near-cache.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().getBean(CacheManager.class).isInstanceOf(NearCacheManager.class));
    }

    /** The cause the start failed with, of the type the refusal throws. */
    private static <T extends Throwable> T refusal(AssertableApplicationContext context, Class<T> type) {
        assertThat(context).hasFailed();
        Throwable cause = context.getStartupFailure();
        while (cause != null && !type.isInstance(cause)) {
            cause = cause.getCause();
        }
        assertThat(cause).as("a %s in %s", type.getSimpleName(), context.getStartupFailure()).isNotNull();
        return type.cast(cause);
    }
}
