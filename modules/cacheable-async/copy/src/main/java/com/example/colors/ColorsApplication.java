package com.example.colors;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cache.annotation.EnableCaching;

@SpringBootApplication
@EnableCaching
public class ColorsApplication {

    public static void main(String[] args) {
        SpringApplication.run(ColorsApplication.class, args);
    }
}
