package dev.colorbench.hashhmget;

import dev.colorbench.core.redis.ColorTemplates;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;

@SpringBootApplication
public class HashHmgetApplication {

    public static void main(String[] args) {
        SpringApplication.run(HashHmgetApplication.class, args);
    }

    /**
     * String keys and field names, field values as the bytes Redis holds: the store decodes each
     * one with the core's {@code ColorCodec}, which knows the field it came from, so that one bad
     * value is one miss instead of a failed HMGET.
     */
    @Bean
    RedisTemplate<String, byte[]> colorTemplate(RedisConnectionFactory connectionFactory) {
        return ColorTemplates.bytes(connectionFactory);
    }
}
