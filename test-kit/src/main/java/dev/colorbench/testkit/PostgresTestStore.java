package dev.colorbench.testkit;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;

import dev.colorbench.core.jdbc.ColorSchema;

import org.opentest4j.TestAbortedException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link TestStore#postgresql()}: the shared {@link TestPostgres}, its statements counted by
 * {@link PostgresQueryStats}. Someone else's data is a table in a schema of the test's own (never
 * in the project's schema, where Flyway expects only what it made), dropped when the test closes.
 */
final class PostgresTestStore implements TestStore {

    private static final String FOREIGN_SCHEMA = "someone_else_" + UUID.randomUUID().toString().replace("-", "");

    private static final String FOREIGN_VALUE = "must survive every test";

    private static final Pattern WIDE = Pattern.compile("^\\s*(/\\*.*?\\*/\\s*)*(DROP|TRUNCATE|DELETE)\\b",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    private static final String KIT = PostgresQueryStats.KIT + " ";

    private Connection connection;

    private PostgresQueryStats stats;

    private TestAbortedException statsUnavailable;

    private boolean planted;

    @Override
    public void open() {
        connection = TestPostgres.connect();
        execute("CREATE SCHEMA " + FOREIGN_SCHEMA);
        planted = true;
        execute("CREATE TABLE " + FOREIGN_SCHEMA + ".data (value text NOT NULL)");
        execute("INSERT INTO " + FOREIGN_SCHEMA + ".data VALUES ('" + FOREIGN_VALUE + "')");
        try {
            stats = TestPostgres.queryStats();
        }
        catch (TestAbortedException ex) {
            // a user's server without pg_stat_statements: only the tests that count statements are skipped
            statsUnavailable = ex;
        }
    }

    @Override
    public Work during(Runnable action) {
        if (stats == null) {
            throw new TestAbortedException(statsUnavailable.getMessage());
        }
        return new Work(stats.usage(action).queries(), null);
    }

    /** The rows of every table in the project's schema, Flyway's history included. */
    @Override
    public long footprint() {
        List<String> tables = new ArrayList<>();
        query("SELECT table_name FROM information_schema.tables WHERE table_schema = '" + ColorSchema.NAME + "'",
                rows -> tables.add(rows.getString(1)));
        long[] rows = { 0 };
        for (String table : tables) {
            query("SELECT count(*) FROM " + ColorSchema.NAME + ".\"" + table + "\"", row -> rows[0] += row.getLong(1));
        }
        return rows[0];
    }

    @Override
    public void assertOthersDataIntactAndNothingWideRan() {
        List<String> values = new ArrayList<>();
        query("SELECT value FROM " + FOREIGN_SCHEMA + ".data", rows -> values.add(rows.getString(1)));
        assertThat(values).containsExactly(FOREIGN_VALUE);
        if (TestPostgres.isOwn() && stats != null) {
            assertThat(stats.everything().keySet()).noneMatch(statement -> WIDE.matcher(statement).find());
        }
    }

    @Override
    public void close() {
        try {
            if (planted) {
                execute("DROP SCHEMA " + FOREIGN_SCHEMA + " CASCADE");
            }
        }
        finally {
            if (stats != null) {
                stats.close();
            }
            try {
                if (connection != null) {
                    connection.close();
                }
            }
            catch (SQLException ex) {
                // closed either way
            }
        }
    }

    private void execute(String sql) {
        try (Statement statement = connection.createStatement()) {
            statement.execute(KIT + sql);
        }
        catch (SQLException ex) {
            throw new IllegalStateException(sql + ": " + ex.getMessage(), ex);
        }
    }

    private interface RowReader {

        void read(ResultSet row) throws SQLException;
    }

    private void query(String sql, RowReader reader) {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(KIT + sql)) {
            while (rows.next()) {
                reader.read(rows);
            }
        }
        catch (SQLException ex) {
            throw new IllegalStateException(sql + ": " + ex.getMessage(), ex);
        }
    }
}
