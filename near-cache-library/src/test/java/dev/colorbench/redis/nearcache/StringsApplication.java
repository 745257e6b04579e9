package dev.colorbench.redis.nearcache;

import java.nio.charset.StandardCharsets;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The application the tracking tests start, each on its own servers: Spring Boot's Redis and the near cache's
 * auto-configuration, and one near cache of strings, named {@code strings}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class StringsApplication {

    @Bean
    NearCache<String> strings(NearCacheTracking tracking) {
        return tracking.newCache("strings", (key, stored) -> new String(stored, StandardCharsets.UTF_8));
    }
}
