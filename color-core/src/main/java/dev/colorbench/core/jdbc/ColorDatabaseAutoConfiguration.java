package dev.colorbench.core.jdbc;

import dev.colorbench.core.ColorSeeder;
import dev.colorbench.core.ColorSeedingAutoConfiguration;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.migration.JavaMigration;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.context.annotation.Bean;

/**
 * What a database module gets from the core: its schema ({@link ColorSchema}, its
 * {@link ColorSeeder}) and the palette's migration, on the {@code Flyway} Spring Boot configures from
 * {@code colorbench/jdbc-defaults.yml}.
 *
 * <p>Spring Boot would migrate while the application starts and fail the start when the database is
 * not there; a module must instead start without its store, alive but not ready, like the Redis
 * modules. So Boot's start-up migration does nothing, and the core's seeding at start-up (after the
 * context is up, where failure is only logged) and reads that find the table missing migrate.
 * Ordered before {@link ColorSeedingAutoConfiguration}, which seeds any {@link ColorSeeder} it finds.
 */
@AutoConfiguration(afterName = "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration",
        before = ColorSeedingAutoConfiguration.class)
@ConditionalOnClass({ Flyway.class, FlywayMigrationStrategy.class })
public class ColorDatabaseAutoConfiguration {

    /** Collected by Spring Boot's Flyway configuration, with the SQL migrations it finds on the classpath. */
    @Bean
    JavaMigration paletteMigration() {
        return new PaletteMigration();
    }

    /** The rows' padding, run again by Flyway whenever the palette's padding changes. */
    @Bean
    JavaMigration paddingMigration() {
        return new PaddingMigration();
    }

    /** The migration runs after start-up instead (see the class comment). */
    @Bean
    @ConditionalOnMissingBean
    FlywayMigrationStrategy migrateAfterStartUpInstead() {
        return flyway -> {
        };
    }

    @Bean
    @ConditionalOnBean(Flyway.class)
    ColorSchema colorSchema(Flyway flyway) {
        return new ColorSchema(flyway);
    }
}
