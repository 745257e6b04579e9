package dev.colorbench.testkit;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The PostgreSQL server the tests talk to: the one named by {@code DATABASE_URL} (a JDBC URL; user
 * and password in it, or in {@code SPRING_DATASOURCE_USERNAME} and {@code SPRING_DATASOURCE_PASSWORD},
 * as the modules read them) when it is set, otherwise an {@link EmbeddedPostgres} started once per
 * test JVM, on first use. Tests that must stop and restart the database always start their own.
 *
 * <p>On the embedded server the kit's own connections are the superuser's; on another server they
 * use the modules' credentials, and touch nothing but what the tests create themselves.
 */
public final class TestPostgres {

    private static String url;

    private static EmbeddedPostgres embedded;

    private TestPostgres() {
    }

    /** The URL the module under test connects with. */
    public static synchronized String jdbcUrl() {
        if (url == null) {
            String configured = System.getenv("DATABASE_URL");
            if (configured == null || configured.isBlank()) {
                embedded = EmbeddedPostgres.start();
                url = embedded.jdbcUrl();
            }
            else {
                url = configured;
            }
        }
        return url;
    }

    /** Whether the tests started this server, so that its whole statement history is theirs. */
    public static synchronized boolean isOwn() {
        jdbcUrl();
        return embedded != null;
    }

    /** A connection of the tests' own to the server, which sends nothing on opening (see {@link PostgresQueryStats}). */
    public static Connection connect() {
        try {
            return isOwn() ? PostgresQueryStats.kitConnection(embedded.superuserJdbcUrl(), null, null)
                    : PostgresQueryStats.kitConnection(jdbcUrl(), environment("SPRING_DATASOURCE_USERNAME"), environment("SPRING_DATASOURCE_PASSWORD"));
        }
        catch (SQLException ex) {
            throw new IllegalStateException("Cannot connect to the test database: " + ex.getMessage(), ex);
        }
    }

    /** Counts the statements of the module under test, from a connection of the tests' own. */
    public static PostgresQueryStats queryStats() {
        return isOwn() ? PostgresQueryStats.connect(embedded.superuserJdbcUrl())
                : PostgresQueryStats.connect(jdbcUrl(), environment("SPRING_DATASOURCE_USERNAME"), environment("SPRING_DATASOURCE_PASSWORD"));
    }

    private static String environment(String name) {
        String value = System.getenv(name);
        return (value == null || value.isBlank()) ? null : value;
    }
}
