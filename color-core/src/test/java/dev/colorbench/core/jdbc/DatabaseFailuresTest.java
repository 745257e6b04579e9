package dev.colorbench.core.jdbc;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

import dev.colorbench.core.web.ErrorProblems;

import org.flywaydb.core.internal.exception.FlywaySqlException;
import org.junit.jupiter.api.Test;

import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.jdbc.UncategorizedSQLException;

import static org.assertj.core.api.Assertions.assertThat;

class DatabaseFailuresTest {

    @Test
    void onlyFailuresWithAnSqlExceptionUnderneathAreTheDatabases() {
        assertThat(DatabaseFailures.isDatabase(ErrorProblems.databaseConnectionFailure())).isTrue();
        assertThat(DatabaseFailures.isDatabase(ErrorProblems.connectionFailure())).isFalse();
        assertThat(DatabaseFailures.isDatabase(ErrorProblems.timeout())).isFalse();
        assertThat(DatabaseFailures.isDatabase(new RedisConnectionFailureException("no", new ConnectException()))).isFalse();
    }

    @Test
    void noConnectionATimeOutAndTheServerGoingDownAreAnOutage() {
        assertThat(DatabaseFailures.isOutage(ErrorProblems.databaseConnectionFailure())).isTrue();
        assertThat(DatabaseFailures.isOutage(ErrorProblems.statementTimeout())).isTrue();
        assertThat(DatabaseFailures.isOutage(uncategorized("57P01"))).as("admin shutdown").isTrue();
        assertThat(DatabaseFailures.isOutage(uncategorized("08006"))).as("connection failure").isTrue();
        assertThat(DatabaseFailures.isOutage(uncategorized("53300"))).as("too many connections").isTrue();
    }

    @Test
    void aMissingTableAConstraintOrAnUnknownStateIsNot() {
        assertThat(DatabaseFailures.isOutage(ErrorProblems.missingTable())).isFalse();
        assertThat(DatabaseFailures.isOutage(new DataIntegrityViolationException("x", new SQLException("check", "23514")))).isFalse();
        assertThat(DatabaseFailures.isOutage(uncategorized(null))).isFalse();
    }

    @Test
    void aFlywayFailureIsClassifiedByTheSqlExceptionInside() {
        FlywaySqlException away = new FlywaySqlException("Unable to obtain connection from database",
                new SQLTransientConnectionException("HikariPool-1 - Connection is not available", "08001"));

        assertThat(DatabaseFailures.isOutage(away)).isTrue();
        assertThat(DatabaseFailures.sqlState(away)).isEqualTo("08001");
    }

    @Test
    void aMissingTableOrSchemaIsRecognised() {
        assertThat(DatabaseFailures.isMissingRelation(ErrorProblems.missingTable())).isTrue();
        assertThat(DatabaseFailures.isMissingRelation(uncategorized("3F000"))).isTrue();
        assertThat(DatabaseFailures.isMissingRelation(ErrorProblems.statementTimeout())).isFalse();
        assertThat(DatabaseFailures.isMissingRelation(uncategorized(null))).as("no SQLState, as in a pool's time-out").isFalse();
    }

    private static UncategorizedSQLException uncategorized(String state) {
        return new UncategorizedSQLException("query", "SELECT 1", new SQLException("failed", state));
    }
}
