package com.example.colors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.cache.Cache;
import org.springframework.cache.annotation.CachingConfigurer;
import org.springframework.cache.interceptor.CacheErrorHandler;
import org.springframework.cache.interceptor.SimpleCacheErrorHandler;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.cache.RedisCache;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.cache.RedisCacheWriter;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.serializer.JacksonJsonRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;
import org.springframework.data.redis.serializer.SerializationException;

/** The cache, and what a cache failure means: a value that cannot be read is a miss, Redis away or slow a 503. */
@Configuration(proxyBeanMethods = false)
class CacheSettings implements CachingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(CacheSettings.class);

    /**
     * Values as JSON written by the application's JsonMapper, no cached nulls, no time to live, every cache a checked
     * {@link ColorCache}, and writes that have reached Redis when {@code put} returns (with Lettuce, {@code put}
     * otherwise returns first). Spring Boot's own cache manager backs off for this one.
     */
    @Bean
    RedisCacheManager cacheManager(RedisConnectionFactory connectionFactory, JsonMapper jsonMapper) {
        RedisCacheConfiguration colors = RedisCacheConfiguration.defaultCacheConfig()
                .disableCachingNullValues()
                .serializeValuesWith(SerializationPair.fromSerializer(new JacksonJsonRedisSerializer<>(jsonMapper, Color.class)));
        RedisCacheWriter writer = RedisCacheWriter.create(connectionFactory, configurer -> configurer.immediateWrites());
        return new RedisCacheManager(writer, colors) {

            @Override
            protected RedisCache createRedisCache(String name, RedisCacheConfiguration configuration) {
                return new ColorCache(name, getCacheWriter(), configuration);
            }
        };
    }

    @Override
    public CacheErrorHandler errorHandler() {
        return new SimpleCacheErrorHandler() {

            /**
             * A value that cannot be read (not JSON, another shape, another color, a key of another Redis type) is
             * evicted, and the read a miss: the method answers and the cache writes it back. Evicting first leaves a
             * miss, not the bad value, if Redis refuses that write. Any other failure is Redis away or slow: rethrown,
             * a 503, never answered from the source unseen.
             */
            @Override
            public void handleCacheGetError(RuntimeException exception, Cache cache, Object key) {
                if (!(exception instanceof SerializationException || isWrongType(exception))) {
                    throw exception;
                }
                log.warn("Unreadable value at {}::{}, answered from the source and written again", cache.getName(), key);
                cache.evict(key);
            }

            /** A write that fails (Redis refusing it, its memory full) leaves the answer standing; the next read tries again. */
            @Override
            public void handleCachePutError(RuntimeException exception, Cache cache, Object key, Object value) {
                if (!(exception instanceof DataAccessException)) {
                    throw exception;
                }
                log.warn("Could not write {}::{} to Redis: {}", cache.getName(), key, exception.getMessage());
            }
        };
    }

    /** A GET of a key that holds a hash, a list or a set: bad data under that key, not an outage. */
    private static boolean isWrongType(RuntimeException exception) {
        String message = NestedExceptionUtils.getMostSpecificCause(exception).getMessage();
        return message != null && message.startsWith("WRONGTYPE");
    }
}
