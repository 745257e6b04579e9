package dev.colorbench.pipelinedget;

import dev.colorbench.core.redis.ColorTemplates;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnection.PipeliningFlushPolicy;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;

@SpringBootApplication
public class PipelinedGetApplication {

    public static void main(String[] args) {
        SpringApplication.run(PipelinedGetApplication.class, args);
    }

    /**
     * String keys, values as the bytes Redis holds: the store decodes each one with the core's
     * {@code ColorCodec}, which knows the key it came from, so that one bad value is one miss.
     */
    @Bean
    RedisTemplate<String, byte[]> colorTemplate(RedisConnectionFactory connectionFactory) {
        return ColorTemplates.bytes(connectionFactory);
    }

    /**
     * Spring Data's default flushes every command of a pipeline to the socket as it is issued, so
     * the 148 GETs would leave in as many writes, and Redis would read them in as many reads as
     * happen to arrive apart. Flushing on close writes them all at once. Safe because a pipeline
     * runs on a connection of its own, borrowed from the pool (Spring Boot has no property for it).
     */
    @Bean
    static BeanPostProcessor flushPipelinesOnClose() {
        return new BeanPostProcessor() {

            @Override
            public Object postProcessBeforeInitialization(Object bean, String beanName) {
                if (bean instanceof LettuceConnectionFactory factory) {
                    factory.setPipeliningFlushPolicy(PipeliningFlushPolicy.flushOnClose());
                }
                return bean;
            }
        };
    }
}
