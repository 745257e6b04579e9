package dev.colorbench.testkit;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PostgresQueryStatsTest {

    @Test
    void countsEachNormalizedQueryAnotherClientRanWithoutTheKitsOwn() throws SQLException {
        try (PostgresQueryStats stats = TestPostgres.queryStats(); Connection other = TestPostgres.connect()) {
            Map<String, Long> ran = stats.during(() -> {
                for (int i = 0; i < 7; i++) {
                    query(other, "SELECT ?::text AS name", "color" + i);
                }
                query(other, "SELECT upper(?::text)", "teal");
                stats.snapshot();
            });

            assertThat(ran).containsExactly(Map.entry("SELECT $1::text AS name", 7L), Map.entry("SELECT upper($1::text)", 1L));
            assertThat(PostgresQueryStats.usage(stats.snapshot(), stats.snapshot()).total()).as("readings alone").isZero();
        }
    }

    @Test
    void showsATransactionsBeginAndCommitButNotAConnectionCheck() throws SQLException {
        try (PostgresQueryStats stats = TestPostgres.queryStats(); Connection other = TestPostgres.connect()) {
            PostgresQueryStats.Usage usage = stats.usage(() -> {
                try {
                    other.isValid(1);
                    other.setAutoCommit(false);
                    query(other, "SELECT lower(?::text)", "TEAL");
                    other.commit();
                    other.setAutoCommit(true);
                }
                catch (SQLException ex) {
                    throw new IllegalStateException(ex);
                }
            });

            assertThat(usage.queries()).containsOnly(Map.entry("BEGIN", 1L), Map.entry("SELECT lower($1::text)", 1L), Map.entry("COMMIT", 1L));
            assertThat(usage.total()).isEqualTo(3);
        }
    }

    @Test
    void aStatementOfTheKitIsNotCountedWhateverItDoes() throws SQLException {
        try (PostgresQueryStats stats = TestPostgres.queryStats(); Connection kit = TestPostgres.connect()) {
            Map<String, Long> ran = stats.during(() -> {
                try (Statement statement = kit.createStatement()) {
                    statement.execute(PostgresQueryStats.KIT + " SELECT count(*) FROM pg_stat_statements");
                }
                catch (SQLException ex) {
                    throw new IllegalStateException(ex);
                }
            });

            assertThat(ran).isEmpty();
        }
    }

    private static void query(Connection connection, String sql, String parameter) {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, parameter);
            statement.executeQuery().close();
        }
        catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
