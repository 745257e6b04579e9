package dev.colorbench.reactivemget;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.core.ReactiveRedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializationContext;
import org.springframework.data.redis.serializer.RedisSerializer;

@SpringBootApplication
public class ReactiveMgetApplication {

    public static void main(String[] args) {
        SpringApplication.run(ReactiveMgetApplication.class, args);
    }

    /**
     * String keys, values as the bytes Redis holds: the store decodes each one with the core's
     * {@code ColorCodec}, which knows the key it came from, so that one bad value is one miss
     * instead of a failed MGET.
     */
    @Bean
    ReactiveRedisTemplate<String, byte[]> colorTemplate(ReactiveRedisConnectionFactory connectionFactory) {
        RedisSerializationContext<String, byte[]> context = RedisSerializationContext
                .<String, byte[]>newSerializationContext(RedisSerializer.string())
                .value(RedisSerializer.byteArray())
                .build();
        return new ReactiveRedisTemplate<>(connectionFactory, context);
    }
}
