package com.example.colors;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.serializer.JacksonJsonRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;

/** What the cache stores: the near cache manager takes this configuration, as Spring Boot's RedisCacheManager would. */
@Configuration(proxyBeanMethods = false)
class CacheSettings {

    /**
     * Values as JSON written by the application's JsonMapper, no cached nulls, no time to live: keys colors::v1::&lt;name&gt;
     * and values byte for byte as cacheable-loop's RedisCacheManager writes them.
     */
    @Bean
    RedisCacheConfiguration colorCacheConfiguration(JsonMapper jsonMapper) {
        return RedisCacheConfiguration.defaultCacheConfig()
                .disableCachingNullValues()
                .serializeValuesWith(SerializationPair.fromSerializer(new JacksonJsonRedisSerializer<>(jsonMapper, Color.class)));
    }
}
