package com.example.colors;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.cache.RedisCache;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.cache.RedisCacheWriter;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.serializer.JacksonJsonRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;

@Configuration(proxyBeanMethods = false)
class CacheSettings {

    /**
     * Caches of {@link ColorCache}: values as JSON by the application's {@code JsonMapper} (JDK serialization cannot
     * cache a record), never a cached null, nothing expires, and writes that have reached Redis when they return.
     * {@code RedisCacheWriter.create} makes Spring Data Redis's default writer, which retrieves asynchronously on Lettuce.
     */
    @Bean
    RedisCacheManager cacheManager(RedisConnectionFactory connectionFactory, JsonMapper jsonMapper) {
        RedisCacheWriter writer = RedisCacheWriter.create(connectionFactory, configurer -> configurer.immediateWrites());
        RedisCacheConfiguration colors = RedisCacheConfiguration.defaultCacheConfig()
                .disableCachingNullValues()
                .serializeValuesWith(SerializationPair.fromSerializer(new JacksonJsonRedisSerializer<>(jsonMapper, Color.class)));
        return new RedisCacheManager(writer, colors) {
            @Override
            protected RedisCache createRedisCache(String name, RedisCacheConfiguration cacheConfiguration) {
                return new ColorCache(name, getCacheWriter(), cacheConfiguration);
            }
        };
    }
}
