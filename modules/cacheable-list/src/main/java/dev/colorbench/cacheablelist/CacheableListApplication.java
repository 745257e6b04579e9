package dev.colorbench.cacheablelist;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cache.annotation.EnableCaching;

/**
 * The cache (JSON values with the application's one mapper, the palette cache's value a list of
 * colors, no cached nulls, immediate writes) and its checks come from color-core's
 * {@code ColorCacheAutoConfiguration}, shared by every caching module.
 */
@SpringBootApplication
@EnableCaching
public class CacheableListApplication {

    public static void main(String[] args) {
        SpringApplication.run(CacheableListApplication.class, args);
    }
}
