package dev.colorbench.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.opentest4j.TestAbortedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** One server of its own, in steps: who may log in, what it holds, and that it stops and starts again on its port with its data. */
@TestMethodOrder(OrderAnnotation.class)
class EmbeddedPostgresTest {

    private static final EmbeddedPostgres POSTGRES = EmbeddedPostgres.start();

    @AfterAll
    static void close() {
        Path files = POSTGRES.logFile().getParent();
        POSTGRES.close();
        assertThat(files).doesNotExist();
    }

    @Test
    @Order(1)
    void theModulesRoleLogsInWithItsPasswordOnlyAndOwnsItsDatabase() throws SQLException {
        try (Connection connection = DriverManager.getConnection(POSTGRES.jdbcUrl())) {
            assertThat(single(connection, "SELECT current_user || '@' || current_database()")).isEqualTo("colorbench@colorbench");
            assertThat(single(connection, "SELECT datdba::regrole::text FROM pg_database WHERE datname = current_database()"))
                    .isEqualTo("colorbench");
        }
        assertThatExceptionOfType(SQLException.class)
                .isThrownBy(() -> DriverManager.getConnection(POSTGRES.jdbcUrl().replace(POSTGRES.password(), "wrong")).close())
                .satisfies(ex -> assertThat(ex.getSQLState()).isEqualTo("28P01"));
    }

    @Test
    @Order(2)
    void statementsAreCountedInTheModulesDatabaseOnly() {
        try (PostgresQueryStats stats = PostgresQueryStats.connect(POSTGRES.superuserJdbcUrl())) {
            assertThat(stats.serverVersion()).startsWith("14.");
        }
        String otherDatabase = POSTGRES.superuserJdbcUrl().replace("/colorbench?", "/postgres?");
        // a database without the extension: the tests that count statements there are skipped, saying why
        assertThatExceptionOfType(TestAbortedException.class).isThrownBy(() -> PostgresQueryStats.connect(otherDatabase))
                .withMessageContaining("CREATE EXTENSION pg_stat_statements").withMessageContaining("skipped");
    }

    @Test
    @Order(3)
    void stopsAndStartsAgainOnItsPortWithItsData() throws Exception {
        try (Connection connection = DriverManager.getConnection(POSTGRES.jdbcUrl()); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE kept (value text)");
            statement.execute("INSERT INTO kept VALUES ('still here')");
        }

        POSTGRES.stop();
        assertThatExceptionOfType(SQLException.class).isThrownBy(() -> DriverManager.getConnection(POSTGRES.jdbcUrl()).close());
        POSTGRES.startServer();

        try (Connection connection = DriverManager.getConnection(POSTGRES.jdbcUrl())) {
            assertThat(single(connection, "SELECT value FROM kept")).isEqualTo("still here");
        }
        assertThat(Files.readString(POSTGRES.logFile())).contains("database system is ready to accept connections");
    }

    private static String single(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(sql)) {
            assertThat(row.next()).isTrue();
            return row.getString(1);
        }
    }
}
