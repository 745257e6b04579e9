package dev.colorbench.core.web;

import dev.colorbench.core.jdbc.DatabaseFailures;
import dev.colorbench.core.redis.RedisReplies;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Any failure to reach or hear from the module's store becomes a fast 503 problem, on MVC and
 * WebFlux alike, titled after the store that failed: {@code Redis unavailable}, or
 * {@code Database unavailable} when an {@link java.sql.SQLException} lies underneath. The body
 * says what happened without the exception text, which may name hosts.
 *
 * <p>Not every {@link DataAccessException} is the store being unavailable. From Redis, a
 * {@code WRONGTYPE} reply is bad data under a key, which the modules heal before it gets here; if
 * one does get here it is a bug, and a 503 would tell clients to retry something that will never
 * work while readiness says all is well. The same holds for the application misusing the API. Both
 * become the 500 problem of {@link UnexpectedErrorHandler}. A refused write (memory full) that
 * reaches this far stays a 503: the server is there but cannot do what was asked just now. From a
 * database, only what {@link DatabaseFailures#isOutage} calls an outage is a 503 (no connection,
 * a time-out, a cancelled statement, the server going down); a missing table, an SQL or constraint
 * error is a 500.
 *
 * <p>Ordered just before {@link UnexpectedErrorHandler}, whose catch-all would otherwise be
 * as good a match for a {@code DataAccessException} as this handler.
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE - 1)
class StoreUnavailableHandler {

    private static final Logger log = LoggerFactory.getLogger(StoreUnavailableHandler.class);

    @ExceptionHandler(DataAccessException.class)
    ProblemDetail storeUnavailable(DataAccessException ex) {
        return DatabaseFailures.isDatabase(ex) ? databaseFailed(ex) : redisFailed(ex);
    }

    private static ProblemDetail redisFailed(DataAccessException ex) {
        if (RedisReplies.isWrongType(ex) || ex instanceof InvalidDataAccessApiUsageException) {
            return UnexpectedErrorHandler.problem(ex);
        }
        String refused = RedisReplies.refusedWriteCode(ex);
        log.warn("Redis unavailable: {}{}", ex.getClass().getSimpleName(), (refused != null) ? " (refused a write: " + refused + ")" : "");
        return unavailable("Redis unavailable", "The color store did not answer; try again shortly.");
    }

    private static ProblemDetail databaseFailed(DataAccessException ex) {
        if (!DatabaseFailures.isOutage(ex)) {
            return UnexpectedErrorHandler.problem(ex);
        }
        log.warn("Database unavailable: {} (SQLState {})", ex.getClass().getSimpleName(), DatabaseFailures.sqlState(ex));
        return unavailable("Database unavailable", "The color database could not be reached or did not answer in time; try again shortly.");
    }

    private static ProblemDetail unavailable(String title, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, detail);
        problem.setTitle(title);
        return problem;
    }
}
