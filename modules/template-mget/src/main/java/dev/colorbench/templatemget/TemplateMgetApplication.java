package dev.colorbench.templatemget;

import dev.colorbench.core.ColorTemplates;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;

@SpringBootApplication
public class TemplateMgetApplication {

    public static void main(String[] args) {
        SpringApplication.run(TemplateMgetApplication.class, args);
    }

    /**
     * String keys, values as the bytes Redis holds: the store decodes each one with the core's
     * {@code ColorCodec}, which knows the key it came from, so that one bad value is one miss
     * instead of a failed MGET.
     */
    @Bean
    RedisTemplate<String, byte[]> colorTemplate(RedisConnectionFactory connectionFactory) {
        return ColorTemplates.bytes(connectionFactory);
    }
}
