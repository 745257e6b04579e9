package com.example.colors;

import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheWriter;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.serializer.JacksonJsonRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;

@Configuration(proxyBeanMethods = false)
class CacheSettings {

    /**
     * The cache colors::v1 as {@code @Cacheable} keeps it: values as JSON written by the application's JsonMapper, no
     * cached nulls, no time to live, and writes that have reached Redis when {@code put} returns (with Lettuce,
     * {@code put} otherwise returns first). With {@code @EnableCaching}, {@code @Cacheable} methods use this manager too.
     */
    @Bean
    MultiGetRedisCacheManager cacheManager(RedisConnectionFactory connectionFactory, JsonMapper jsonMapper) {
        RedisCacheConfiguration colors = RedisCacheConfiguration.defaultCacheConfig()
                .disableCachingNullValues()
                .serializeValuesWith(SerializationPair.fromSerializer(new JacksonJsonRedisSerializer<>(jsonMapper, Color.class)));
        RedisCacheWriter writer = RedisCacheWriter.create(connectionFactory, configurer -> configurer.immediateWrites());
        return new MultiGetRedisCacheManager(writer, colors, Map.of("colors::v1", colors));
    }
}
