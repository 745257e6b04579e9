package dev.colorbench.hashhmget;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;

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
        RedisTemplate<String, byte[]> template = new RedisTemplate<>();
        template.setConnectionFactory(connectionFactory);
        template.setKeySerializer(RedisSerializer.string());
        template.setValueSerializer(RedisSerializer.byteArray());
        template.setHashKeySerializer(RedisSerializer.string());
        template.setHashValueSerializer(RedisSerializer.byteArray());
        return template;
    }
}
