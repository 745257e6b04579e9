package com.example.colors;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;

@SpringBootApplication
public class ColorsApplication {

    public static void main(String[] args) {
        SpringApplication.run(ColorsApplication.class, args);
    }

    /**
     * String keys and field names, field values as the bytes Redis holds: the store decodes each value itself, so one
     * bad value is one miss.
     */
    @Bean
    RedisTemplate<String, byte[]> colorTemplate(RedisConnectionFactory connectionFactory) {
        RedisTemplate<String, byte[]> template = new RedisTemplate<>();
        template.setConnectionFactory(connectionFactory);
        template.setKeySerializer(RedisSerializer.string());
        template.setHashKeySerializer(RedisSerializer.string());
        template.setHashValueSerializer(RedisSerializer.byteArray());
        return template;
    }
}
