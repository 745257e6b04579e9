package dev.colorbench.core.jdbc;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Set;
import java.util.stream.Stream;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;

/**
 * Tells a database that is away, slow or overloaded apart from a failure that retrying will not
 * fix, in any exception with an {@link SQLException} among its causes: a Spring
 * {@code DataAccessException} from {@code JdbcClient}, Hikari's own time-out, a Flyway failure.
 * Only JDK and Spring types are named, so the core needs no driver.
 *
 * <p>An outage is what a client should retry shortly: no connection (refused, timed out, the pool
 * exhausted), the server shutting down or starting, out of resources, a statement cancelled by
 * {@code statement_timeout}, a lock or serialization conflict. By SQLState class: {@code 08}
 * connection, {@code 53} insufficient resources, {@code 57} operator intervention (query cancelled,
 * admin shutdown, cannot connect now), {@code 58} system error; and whatever Spring or JDBC calls
 * transient or recoverable. Anything else (a missing table, a syntax or constraint error) is a bug
 * or bad data, and a 503 would send clients retrying something that will never work.
 */
public final class DatabaseFailures {

    private static final Set<String> OUTAGE_CLASSES = Set.of("08", "53", "57", "58");

    /** {@code undefined_table}, {@code invalid_schema_name}: the project's schema is not there. */
    private static final Set<String> MISSING_RELATION = Set.of("42P01", "3F000");

    private DatabaseFailures() {
    }

    /** Whether {@code failure} came from a database, not from Redis or the application. */
    public static boolean isDatabase(Throwable failure) {
        return causes(failure).anyMatch(SQLException.class::isInstance);
    }

    /** Whether {@code failure} means the database is unavailable for now (see the class comment). */
    public static boolean isOutage(Throwable failure) {
        if (failure instanceof TransientDataAccessException || failure instanceof RecoverableDataAccessException
                || failure instanceof DataAccessResourceFailureException) {
            return true;
        }
        return causes(failure).anyMatch(cause -> cause instanceof SQLTransientException || cause instanceof SQLRecoverableException
                || cause instanceof SQLNonTransientConnectionException || OUTAGE_CLASSES.contains(stateClass(cause)));
    }

    /** Whether a query failed because a table or schema it names does not exist. */
    static boolean isMissingRelation(Throwable failure) {
        return causes(failure).anyMatch(cause -> cause instanceof SQLException sql && sql.getSQLState() != null
                && MISSING_RELATION.contains(sql.getSQLState()));
    }

    /** The SQLState of the first {@link SQLException} in {@code failure}'s causes that has one, for logs. */
    public static String sqlState(Throwable failure) {
        return causes(failure).filter(SQLException.class::isInstance).map(cause -> ((SQLException) cause).getSQLState())
                .filter(state -> state != null).findFirst().orElse(null);
    }

    private static String stateClass(Throwable cause) {
        String state = (cause instanceof SQLException sql) ? sql.getSQLState() : null;
        return (state != null && state.length() >= 2) ? state.substring(0, 2) : "";
    }

    /** {@code failure} and its causes, outermost first (bounded, in case a chain loops). */
    private static Stream<Throwable> causes(Throwable failure) {
        return Stream.iterate(failure, cause -> cause != null, Throwable::getCause).limit(32);
    }
}
