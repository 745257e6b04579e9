package dev.colorbench.templatemget;

import dev.colorbench.core.Color;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.JacksonJsonRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;

@SpringBootApplication
public class TemplateMgetApplication {

    public static void main(String[] args) {
        SpringApplication.run(TemplateMgetApplication.class, args);
    }

    /** String keys, JSON values written with the application's one JSON mapper. */
    @Bean
    RedisTemplate<String, Color> colorTemplate(RedisConnectionFactory connectionFactory, JsonMapper jsonMapper) {
        RedisTemplate<String, Color> template = new RedisTemplate<>();
        template.setConnectionFactory(connectionFactory);
        template.setKeySerializer(RedisSerializer.string());
        template.setValueSerializer(new JacksonJsonRedisSerializer<>(jsonMapper, Color.class));
        return template;
    }
}
