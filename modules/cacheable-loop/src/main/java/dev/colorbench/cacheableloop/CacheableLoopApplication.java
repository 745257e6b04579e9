package dev.colorbench.cacheableloop;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cache.annotation.EnableCaching;

/**
 * The cache itself (JSON values with the application's one mapper, no cached nulls, immediate
 * writes) and its checks come from color-core's {@code ColorCacheAutoConfiguration}, shared by
 * every caching module.
 */
@SpringBootApplication
@EnableCaching
public class CacheableLoopApplication {

    public static void main(String[] args) {
        SpringApplication.run(CacheableLoopApplication.class, args);
    }
}
