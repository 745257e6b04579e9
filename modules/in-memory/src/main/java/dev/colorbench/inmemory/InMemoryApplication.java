package dev.colorbench.inmemory;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class InMemoryApplication {

    public static void main(String[] args) {
        SpringApplication.run(InMemoryApplication.class, args);
    }
}
