package dev.colorbench.core;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.io.ClassPathResource;
import org.springframework.util.ClassUtils;

/**
 * Adds the settings all modules share ({@code colorbench/defaults.yml}) behind every other
 * property source, so they live in one place and each module's {@code application.yml} keeps
 * only what is its own: name, port and Redis URL.
 */
class ColorDefaults implements EnvironmentPostProcessor {

    private static final String REDIS_CLASS = "org.springframework.data.redis.connection.RedisConnectionFactory";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        addLast(environment, "colorbench/defaults.yml");
        if (ClassUtils.isPresent(REDIS_CLASS, application.getClassLoader())) {
            addLast(environment, "colorbench/redis-defaults.yml");
        }
    }

    private static void addLast(ConfigurableEnvironment environment, String location) {
        try {
            new YamlPropertySourceLoader().load(location, new ClassPathResource(location))
                    .forEach(environment.getPropertySources()::addLast);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
