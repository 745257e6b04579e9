package com.example.colors;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cache.annotation.EnableCaching;

/** {@code @EnableCaching}: {@code @Cacheable} methods go through the near cache manager, with {@link CacheSettings}. */
@SpringBootApplication
@EnableCaching
public class ColorsApplication {

    public static void main(String[] args) {
        SpringApplication.run(ColorsApplication.class, args);
    }
}
