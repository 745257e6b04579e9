package dev.colorbench.cacheablemultiget;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cache.annotation.EnableCaching;

/**
 * The cache (JSON values with the application's one mapper, no cached nulls, immediate writes)
 * comes from color-core's {@code ColorCacheAutoConfiguration}, shared by every caching module; its
 * cache manager makes every cache a {@code MultiGetRedisCache}, which is what this module reads with.
 */
@SpringBootApplication
@EnableCaching
public class CacheableMultigetApplication {

    public static void main(String[] args) {
        SpringApplication.run(CacheableMultigetApplication.class, args);
    }
}
