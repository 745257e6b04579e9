package dev.colorbench.inmemory;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class InMemoryApplication {

    /**
     * How the module renders its answer: {@code bytes} (the default, the ceiling) writes JSON
     * rendered once at start-up; {@code objects} hands the palette's colors to Jackson on every
     * request, as the Redis modules that decode into objects do (the pom's {@code objects} variant).
     */
    static final String RENDER = "colorbench.render";

    public static void main(String[] args) {
        SpringApplication.run(InMemoryApplication.class, args);
    }
}
