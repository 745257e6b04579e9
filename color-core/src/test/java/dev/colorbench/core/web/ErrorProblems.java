package dev.colorbench.core.web;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;

import io.lettuce.core.RedisCommandExecutionException;

import org.springframework.dao.QueryTimeoutException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;

import static org.assertj.core.api.Assertions.assertThat;

/** What the error-handling tests of both stacks throw and check. */
public final class ErrorProblems {

    /** Text that must reach the log and never a response. */
    static final String SECRET = "redis://:hunter2@cache.internal:6379";

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private ErrorProblems() {
    }

    /** A bug: nothing in the application expects it. */
    public static RuntimeException unexpected() {
        return new IllegalStateException("Bug while talking to " + SECRET);
    }

    /** Bad data no module healed: Redis answered, the data was wrong. */
    public static RuntimeException wrongType() {
        return new RedisSystemException("Error in execution",
                new RedisCommandExecutionException("WRONGTYPE Operation against a key holding the wrong kind of value"));
    }

    public static RuntimeException connectionFailure() {
        return new RedisConnectionFailureException("Unable to connect to " + SECRET);
    }

    public static RuntimeException timeout() {
        return new QueryTimeoutException("Redis command timed out");
    }

    /** What JdbcClient throws when Hikari has no connection to give within its time-out (the database is away). */
    public static RuntimeException databaseConnectionFailure() {
        return new CannotGetJdbcConnectionException("Failed to obtain JDBC Connection", new SQLTransientConnectionException(
                "HikariPool-1 - Connection is not available, request timed out after 500ms (" + SECRET + ")", "08001"));
    }

    /** A statement the server cancelled at {@code statement_timeout}. */
    public static RuntimeException statementTimeout() {
        return new QueryTimeoutException("PreparedStatementCallback",
                new SQLException("ERROR: canceling statement due to statement timeout", "57014"));
    }

    /** A table that is not there after migrating: a bug, not an outage. */
    public static RuntimeException missingTable() {
        return new BadSqlGrammarException("PreparedStatementCallback", "SELECT name FROM colorbench.colors",
                new SQLException("ERROR: relation \"colorbench.colors\" does not exist", "42P01"));
    }

    public static HttpResponse<String> send(int port, String method, String path) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(10))
                .build();
        try {
            return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
        }
        catch (IOException ex) {
            throw new AssertionError(method + " " + path, ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new AssertionError(ex);
        }
    }

    public static void assertProblem(HttpResponse<String> response, int status) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.body()).contains("\"status\":" + status).doesNotContain("hunter2").doesNotContain("Exception")
                .doesNotContain("\tat ");
    }
}
