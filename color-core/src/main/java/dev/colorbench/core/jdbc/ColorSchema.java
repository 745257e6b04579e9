package dev.colorbench.core.jdbc;

import java.util.function.Supplier;

import dev.colorbench.core.ColorSeeder;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;

/**
 * The project's own schema in the database, {@value #NAME}: the table {@value #TABLE} with one row
 * per palette color, created and filled by Flyway (the SQL migrations in
 * {@code colorbench/db/migration} and {@link PaletteMigration}), with Flyway's history table beside
 * it. Nothing outside the schema is written, and nothing is ever dropped.
 *
 * <p>It is the database modules' {@link ColorSeeder}: migrating is what seeding is here, and Flyway
 * makes it idempotent (an up-to-date schema costs a few catalog queries and changes nothing). As
 * with Redis, seeding runs after start-up, where a database that is not there yet is logged rather
 * than fatal, and again from {@link #read} when a query finds the table missing: a database that
 * appeared after the module started, or came back new and empty.
 */
public final class ColorSchema implements ColorSeeder {

    /** The schema every database module reads, and the only one it writes. */
    public static final String NAME = "colorbench";

    /** The palette's table. */
    public static final String TABLE = NAME + ".colors";

    private static final Logger log = LoggerFactory.getLogger(ColorSchema.class);

    private final Flyway flyway;

    ColorSchema(Flyway flyway) {
        this.flyway = flyway;
    }

    /**
     * Runs {@code query}; if it fails because the table or schema does not exist, migrates and runs it
     * once more. A query that finds the table costs nothing extra: no check runs before it.
     */
    public <T> T read(Supplier<T> query) {
        try {
            return query.get();
        }
        catch (DataAccessException ex) {
            if (!DatabaseFailures.isMissingRelation(ex)) {
                throw ex;
            }
            log.info("{} is missing (a database new to this module, or one that came back empty); migrating, then reading again", TABLE);
            seed();
            return query.get();
        }
    }

    /**
     * Brings the schema up to date. A database that cannot be reached or answered too slowly is a
     * {@link DataAccessResourceFailureException}, which start-up logs and a read answers with a 503;
     * any other Flyway failure (a migration that no longer matches its history) is thrown as it is.
     */
    @Override
    public void seed() {
        try {
            flyway.migrate();
        }
        catch (FlywayException ex) {
            if (DatabaseFailures.isOutage(ex)) {
                throw new DataAccessResourceFailureException("Could not migrate " + NAME + ": the database is unavailable", ex);
            }
            throw ex;
        }
    }
}
