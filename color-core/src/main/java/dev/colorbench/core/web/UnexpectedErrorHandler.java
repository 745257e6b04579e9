package dev.colorbench.core.web;

import dev.colorbench.core.palette.ColorNames;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * The last word on any exception nothing else handled, on MVC and WebFlux alike: a 500 problem
 * instead of Spring Boot's default error body. The body never carries the exception's text,
 * which may quote stored data or name hosts; the exception goes to the log, stack trace and all.
 *
 * <p>It is ordered last: Spring Boot's problem-details handler (order 0) still answers the
 * framework's own exceptions (404, 405, 406, the 400s from {@link ColorNames}) with their own
 * status, and {@link StoreUnavailableHandler} answers a store that is away or slow with a 503.
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
class UnexpectedErrorHandler {

    private static final Logger log = LoggerFactory.getLogger(UnexpectedErrorHandler.class);

    @ExceptionHandler(Exception.class)
    ProblemDetail unexpected(Exception ex) {
        return problem(ex);
    }

    /** Logs {@code ex} and describes it to the caller without a word of its text. */
    static ProblemDetail problem(Exception ex) {
        log.error("Unexpected error answering a request", ex);
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR,
                "The server failed to answer; the error has been logged.");
        problem.setTitle("Internal Server Error");
        return problem;
    }
}
