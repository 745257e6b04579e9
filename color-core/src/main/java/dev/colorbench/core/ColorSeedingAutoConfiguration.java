package dev.colorbench.core;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.dao.DataAccessException;

/**
 * Seeds the module's store once the application has started: its {@link ColorSeeder} writes its Redis
 * keys or migrates its database schema. The seeder is a bean of the module, or the database
 * configuration's schema, which is ordered before this one.
 */
@AutoConfiguration
@ConditionalOnClass(DataAccessException.class)
public class ColorSeedingAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ColorSeedingAutoConfiguration.class);

    /**
     * A module that cannot seed at start-up still starts, alive but not ready; its first read seeds
     * instead. See docs/failure-behaviour.md.
     */
    @Bean
    @ConditionalOnBean(ColorSeeder.class)
    ApplicationRunner seedAtStartup(ColorSeeder seeder) {
        return args -> {
            try {
                seeder.seed();
            }
            catch (DataAccessException ex) {
                log.warn("Could not seed the store at start-up ({}); will seed on first read", ex.getClass().getSimpleName());
            }
        };
    }
}
