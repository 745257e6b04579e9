package dev.colorbench.cacheableloop;

import dev.colorbench.core.Color;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.cache.autoconfigure.RedisCacheManagerBuilderCustomizer;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheWriter;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.serializer.JacksonJsonRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;

@SpringBootApplication
@EnableCaching
public class CacheableLoopApplication {

    public static void main(String[] args) {
        SpringApplication.run(CacheableLoopApplication.class, args);
    }

    /** Cache values as JSON, with the application's one JSON mapper, never caching a null. */
    @Bean
    RedisCacheConfiguration colorCacheConfiguration(JsonMapper jsonMapper) {
        return RedisCacheConfiguration.defaultCacheConfig()
                .disableCachingNullValues()
                .serializeValuesWith(SerializationPair.fromSerializer(new JacksonJsonRedisSerializer<>(jsonMapper, Color.class)));
    }

    /**
     * Writes finish before {@code put} returns: with Lettuce they would otherwise be sent
     * asynchronously, and a cache miss would answer before its SET reached Redis.
     */
    @Bean
    RedisCacheManagerBuilderCustomizer immediateCacheWrites(RedisConnectionFactory connectionFactory) {
        return builder -> builder.cacheWriter(RedisCacheWriter.create(connectionFactory, writer -> writer.immediateWrites()));
    }
}
