package dev.colorbench.hashrepository;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class RedisHashRepositoryApplication {

    public static void main(String[] args) {
        SpringApplication.run(RedisHashRepositoryApplication.class, args);
    }
}
