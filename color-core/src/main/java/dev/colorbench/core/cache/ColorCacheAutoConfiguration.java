package dev.colorbench.core.cache;

import java.util.List;
import java.util.Map;

import dev.colorbench.core.palette.Color;
import dev.colorbench.core.redis.ColorKeys;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.CachingConfigurer;
import org.springframework.cache.interceptor.CacheAspectSupport;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.cache.RedisCache;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheWriter;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.serializer.JacksonJsonRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;

/**
 * The cache every caching module shares, for modules that {@code @EnableCaching} with Spring Data
 * Redis, so that none of them configures one and they all write the same bytes under the same keys:
 *
 * <ul>
 * <li>values are JSON written by the application's one {@link JsonMapper} (a {@link Color} in the
 * color cache, the palette's list in the palette cache), nulls are never cached, nothing expires,
 * keys are {@code <cache name>::<key>} (Spring Data Redis's default prefix);</li>
 * <li>writes are immediate: {@code put} and {@code evict} have reached Redis when they return. With
 * Lettuce they would otherwise be sent asynchronously, and a miss could answer before its
 * {@code SET} arrived;</li>
 * <li>the cache manager is a {@link MultiGetRedisCacheManager}, so every cache also reads and
 * writes many keys at once; it replaces Spring Boot's, which backs off when one is defined;</li>
 * <li>reads of the color and palette caches are checked against their keys, and an unreadable value
 * becomes a miss ({@link ColorCacheConfigurer}).</li>
 * </ul>
 *
 * Each bean steps aside for one the module declares itself. The cache manager also steps aside for the
 * near cache library's {@code NearCacheManager}, which a module turns on with
 * {@code redis.near-cache.cache-manager.enabled=true} (cacheable-near-cache): this configuration runs after
 * the library's, and that manager takes the {@link RedisCacheConfiguration} below, so its keys and values
 * are this cache's. Its reads go through a local copy, and a miss there is one {@code MGET}, which answers
 * a key of another type as nothing: with that property on, the checks ask such a miss for its key's
 * {@code TYPE} ({@link CheckedColorCache}), so that the key is warned about and healed as a {@code GET}'s
 * {@code WRONGTYPE} would be.
 */
@AutoConfiguration(afterName = { "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
        "dev.colorbench.redis.nearcache.NearCacheManagerAutoConfiguration" },
        beforeName = "org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration")
@ConditionalOnClass({ RedisCache.class, CachingConfigurer.class })
@ConditionalOnBean(CacheAspectSupport.class)
public class ColorCacheAutoConfiguration {

    /** The property that makes the near cache library's {@code NearCacheManager} the cache manager. */
    static final String NEAR_CACHE_MANAGER_PROPERTY = "redis.near-cache.cache-manager.enabled";

    /**
     * The checks; a module that declares a {@link CachingConfigurer} of its own takes them over. Behind the near cache
     * manager, a miss is also asked for its key's type.
     */
    @Bean
    @ConditionalOnMissingBean(CachingConfigurer.class)
    CachingConfigurer colorCacheChecks(ObjectProvider<CacheManager> cacheManager, Environment environment) {
        return new ColorCacheConfigurer(cacheManager, environment.getProperty(NEAR_CACHE_MANAGER_PROPERTY, Boolean.class, false));
    }

    /** Cache values as JSON, with the application's one JSON mapper, never caching a null. */
    @Bean
    @ConditionalOnMissingBean
    RedisCacheConfiguration colorCacheConfiguration(JsonMapper jsonMapper) {
        return RedisCacheConfiguration.defaultCacheConfig()
                .disableCachingNullValues()
                .serializeValuesWith(SerializationPair.fromSerializer(new JacksonJsonRedisSerializer<>(jsonMapper, Color.class)));
    }

    /**
     * Immediate writes, the color cache with {@code defaults}, and the palette cache with the same
     * settings but a list of colors for a value: the JSON array {@code GET /colors} answers.
     */
    @Bean
    @ConditionalOnMissingBean(CacheManager.class)
    @ConditionalOnBean(RedisConnectionFactory.class)
    MultiGetRedisCacheManager cacheManager(RedisConnectionFactory connectionFactory, RedisCacheConfiguration defaults,
            JsonMapper jsonMapper) {
        RedisCacheWriter writer = RedisCacheWriter.create(connectionFactory, configurer -> configurer.immediateWrites());
        JacksonJsonRedisSerializer<List<Color>> palette = new JacksonJsonRedisSerializer<>(jsonMapper,
                jsonMapper.getTypeFactory().constructCollectionType(List.class, Color.class));
        return new MultiGetRedisCacheManager(writer, defaults, Map.of(
                ColorKeys.CACHE_NAME, defaults,
                ColorKeys.PALETTE_CACHE_NAME, defaults.serializeValuesWith(SerializationPair.fromSerializer(palette))));
    }
}
