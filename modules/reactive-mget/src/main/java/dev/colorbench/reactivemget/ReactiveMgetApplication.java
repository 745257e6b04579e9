package dev.colorbench.reactivemget;

import dev.colorbench.core.Color;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.core.ReactiveRedisTemplate;
import org.springframework.data.redis.serializer.JacksonJsonRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializationContext;
import org.springframework.data.redis.serializer.RedisSerializer;

@SpringBootApplication
public class ReactiveMgetApplication {

    public static void main(String[] args) {
        SpringApplication.run(ReactiveMgetApplication.class, args);
    }

    /** String keys, JSON values written with the application's one JSON mapper. */
    @Bean
    ReactiveRedisTemplate<String, Color> colorTemplate(ReactiveRedisConnectionFactory connectionFactory, JsonMapper jsonMapper) {
        RedisSerializationContext<String, Color> context = RedisSerializationContext
                .<String, Color>newSerializationContext(RedisSerializer.string())
                .value(new JacksonJsonRedisSerializer<>(jsonMapper, Color.class))
                .build();
        return new ReactiveRedisTemplate<>(connectionFactory, context);
    }
}
