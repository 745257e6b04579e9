package dev.colorbench.redissonnearcache;

import dev.colorbench.core.redis.ColorTemplates;
import org.redisson.api.RedissonClient;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;

@SpringBootApplication
public class RedissonNearCacheApplication {

    public static void main(String[] args) {
        SpringApplication.run(RedissonNearCacheApplication.class, args);
    }

    /** Seeding and healing, which are rare, go through the application's Lettuce connection like every module's. */
    @Bean
    RedisTemplate<String, byte[]> colorTemplate(RedisConnectionFactory connectionFactory) {
        return ColorTemplates.bytes(connectionFactory);
    }

    /** The one Redisson client, from the same {@code spring.data.redis.*} settings as Lettuce ({@link RedissonSettings}). */
    @Bean(destroyMethod = "shutdown")
    RedissonClient redisson(DataRedisConnectionDetails connection, DataRedisProperties properties) {
        return RedissonSettings.client(connection, properties);
    }
}
