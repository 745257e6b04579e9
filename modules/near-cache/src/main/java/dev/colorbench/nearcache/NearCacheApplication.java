package dev.colorbench.nearcache;

import dev.colorbench.core.redis.ColorTemplates;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;

@SpringBootApplication
public class NearCacheApplication {

    public static void main(String[] args) {
        SpringApplication.run(NearCacheApplication.class, args);
    }

    /**
     * String keys, values as the bytes Redis holds: a miss's MGET goes below it to the connection with
     * keys encoded once; the template is for healing and seeding, which are rare.
     */
    @Bean
    RedisTemplate<String, byte[]> colorTemplate(RedisConnectionFactory connectionFactory) {
        return ColorTemplates.bytes(connectionFactory);
    }
}
