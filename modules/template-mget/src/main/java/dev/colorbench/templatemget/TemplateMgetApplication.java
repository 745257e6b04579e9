package dev.colorbench.templatemget;

import dev.colorbench.core.redis.ColorTemplates;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;

/**
 * One MGET through {@code RedisTemplate} ({@link TemplateMgetColorStore}). On a Redis Cluster
 * ({@code REDIS_CLUSTER_NODES}) the key layout decides what that MGET costs, and both are offered:
 * plain {@code colors::v3::<name>} keys, which Lettuce splits into one MGET per slot (148, on every master,
 * in parallel), or, with {@code colorbench.redis.hash-tag=true}, {@code colors::{v3}::<name>} in one slot,
 * one MGET on one master that then serves every read (color-core's {@code JsonKeys}; docs/cluster.md says what each layout costs).
 */
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
