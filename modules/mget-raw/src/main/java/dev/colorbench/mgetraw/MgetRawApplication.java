package dev.colorbench.mgetraw;

import dev.colorbench.core.redis.ColorTemplates;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;

/**
 * One MGET, its bytes copied into the answer ({@link MgetRawColorStore}). On a Redis Cluster
 * ({@code REDIS_CLUSTER_NODES}) it offers template-mget's two key layouts: plain keys, one MGET per slot
 * (148, on every master, in parallel), or with {@code colorbench.redis.hash-tag=true} one slot and one MGET
 * on one master (color-core's {@code JsonKeys}; docs/cluster.md says what each layout costs).
 */
@SpringBootApplication
public class MgetRawApplication {

    public static void main(String[] args) {
        SpringApplication.run(MgetRawApplication.class, args);
    }

    /**
     * String keys, values as the bytes Redis holds: the read itself goes below it to the connection
     * with keys encoded once; the template is for healing, which is rare.
     */
    @Bean
    RedisTemplate<String, byte[]> colorTemplate(RedisConnectionFactory connectionFactory) {
        return ColorTemplates.bytes(connectionFactory);
    }
}
