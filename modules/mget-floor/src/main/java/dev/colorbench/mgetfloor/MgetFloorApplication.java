package dev.colorbench.mgetfloor;

import dev.colorbench.core.redis.ColorTemplates;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;

/** The floor: one MGET on the request thread, its bytes copied into the answer ({@link MgetFloorColorStore}). */
@SpringBootApplication
public class MgetFloorApplication {

    public static void main(String[] args) {
        SpringApplication.run(MgetFloorApplication.class, args);
    }

    /** String keys, values as the bytes Redis holds: for healing and seeding; the read goes below it. */
    @Bean
    RedisTemplate<String, byte[]> colorTemplate(RedisConnectionFactory connectionFactory) {
        return ColorTemplates.bytes(connectionFactory);
    }
}
