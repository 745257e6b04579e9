package dev.colorbench.testkit;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import org.opentest4j.TestAbortedException;

/**
 * Counts the statements a PostgreSQL server has executed in one database, over a connection of its
 * own, from {@code pg_stat_statements}: by normalized query (the text with its constants and
 * parameters as {@code $1}, {@code $2}, ...), each with the number of times it ran. This is how the
 * tests and the benchmark see, from outside the application, what one request really cost; the
 * PostgreSQL counterpart of {@link RedisCommandStats}.
 *
 * <p>Every statement the test kit sends (this class's readings, {@link EmbeddedPostgres}'s set-up,
 * the contracts' own data) carries a marker comment, and statements with that marker are left out of
 * every count. Nothing else is: a pattern that opens a transaction ({@code BEGIN}, {@code COMMIT}),
 * sets something per request or checks its connection with a query shows it, and so does a
 * connection the driver opens with a {@code SET} (the kit's connections and the modules' say what
 * they need in the start-up packet instead). Only the database named in the URL is counted.
 *
 * <p>{@code pg_stat_statements} records a statement when it finishes, before the server tells the
 * client it is ready for the next one, so a request that has been answered has been counted. It
 * must be loaded ({@code shared_preload_libraries}) and created in the database
 * ({@code CREATE EXTENSION pg_stat_statements}): {@link EmbeddedPostgres} does both; on another
 * server this class only reads, and says so if the view is missing. A role that is neither
 * superuser nor member of {@code pg_read_all_stats} sees other roles' statements counted under
 * {@value #HIDDEN}.
 */
public final class PostgresQueryStats implements AutoCloseable {

    /** Marks the test kit's own statements, so that they can be told apart from everyone else's. */
    static final String KIT = "/* colorbench test kit */";

    /** What {@code pg_stat_statements} shows instead of a text the connecting role may not read. */
    public static final String HIDDEN = "<insufficient privilege>";

    private static final String SNAPSHOT = KIT + " SELECT query, sum(calls)::bigint FROM pg_stat_statements"
            + " WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) GROUP BY query";

    private final Connection connection;

    private PostgresQueryStats(Connection connection) {
        this.connection = connection;
        try {
            snapshot();
        }
        catch (IllegalStateException ex) {
            close();
            throw ex;
        }
    }

    /** Connects with a JDBC URL that names the database and carries the user (and password) to log in with. */
    public static PostgresQueryStats connect(String jdbcUrl) {
        return connect(jdbcUrl, null, null);
    }

    /** Connects with a JDBC URL and a user and password given apart from it (null: none, or as in the URL). */
    public static PostgresQueryStats connect(String jdbcUrl, String user, String password) {
        try {
            return new PostgresQueryStats(kitConnection(jdbcUrl, user, password));
        }
        catch (SQLException ex) {
            throw new IllegalStateException("Cannot connect to count statements: " + ex.getMessage(), ex);
        }
    }

    /**
     * A connection of the kit's own that sends no statement of its own on opening: the driver would
     * otherwise follow the start-up with a {@code SET application_name}, which would be counted.
     */
    static Connection kitConnection(String jdbcUrl, String user, String password) throws SQLException {
        Properties properties = new Properties();
        if (user != null) {
            properties.setProperty("user", user);
        }
        if (password != null) {
            properties.setProperty("password", password);
        }
        properties.setProperty("assumeMinServerVersion", "10");
        properties.setProperty("ApplicationName", "colorbench test kit");
        return DriverManager.getConnection(jdbcUrl, properties);
    }

    /** The server's counters as they stood when this reading was taken: calls by normalized query, this class's own left out. */
    public record Snapshot(Map<String, Long> calls) {
    }

    /** What the server executed between two readings: calls by normalized query. */
    public record Usage(Map<String, Long> queries) {

        /** Every statement executed, whatever its text. */
        public long total() {
            return queries.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** Reads the counters. */
    public synchronized Snapshot snapshot() {
        Map<String, Long> calls = new TreeMap<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(SNAPSHOT)) {
            while (rows.next()) {
                String query = rows.getString(1);
                if (query == null || !query.contains(KIT)) {
                    calls.merge(query == null ? HIDDEN : query, rows.getLong(2), Long::sum);
                }
            }
        }
        catch (SQLException ex) {
            if (unavailable(ex)) {
                // a server of the user's (DATABASE_URL) without the extension: the tests that count statements cannot apply there
                throw new TestAbortedException(explain(ex) + "; a test that counts statements is skipped on this server", ex);
            }
            throw new IllegalStateException(explain(ex), ex);
        }
        return new Snapshot(calls);
    }

    /** The statements executed while {@code action} ran, by normalized query. */
    public Map<String, Long> during(Runnable action) {
        return usage(action).queries();
    }

    /** The statements executed while {@code action} ran: by normalized query, and in total. */
    public Usage usage(Runnable action) {
        Snapshot before = snapshot();
        action.run();
        return usage(before, snapshot());
    }

    /** What the server executed between two readings. */
    public static Usage usage(Snapshot before, Snapshot after) {
        Map<String, Long> delta = new TreeMap<>();
        after.calls().forEach((query, calls) -> {
            long added = calls - before.calls().getOrDefault(query, 0L);
            if (added > 0) {
                delta.put(query, added);
            }
        });
        return new Usage(delta);
    }

    /** Every statement recorded in the database so far (since the server started, or the statistics were reset), for checks that something never ran. */
    public Map<String, Long> everything() {
        return snapshot().calls();
    }

    /** The server's version, for reports. */
    public synchronized String serverVersion() {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(KIT + " SELECT current_setting('server_version')")) {
            row.next();
            return row.getString(1);
        }
        catch (SQLException ex) {
            throw new IllegalStateException(ex.getMessage(), ex);
        }
    }

    @Override
    public synchronized void close() {
        try {
            connection.close();
        }
        catch (SQLException ex) {
            // the connection is gone either way
        }
    }

    private static boolean unavailable(SQLException ex) {
        return "42P01".equals(ex.getSQLState()) || "55000".equals(ex.getSQLState());
    }

    private static String explain(SQLException ex) {
        if (unavailable(ex)) {
            return "pg_stat_statements is not available in this database (" + ex.getMessage() + "): the server needs "
                    + "shared_preload_libraries = 'pg_stat_statements' and the database CREATE EXTENSION pg_stat_statements";
        }
        return "Cannot read pg_stat_statements: " + ex.getMessage();
    }
}
