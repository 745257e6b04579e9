package dev.colorbench.core;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Any failure to reach or hear from Redis becomes a fast 503 problem, on MVC and WebFlux alike.
 * The body says what happened without the exception text, which may name hosts.
 */
@RestControllerAdvice
class RedisUnavailableHandler {

    private static final Logger log = LoggerFactory.getLogger(RedisUnavailableHandler.class);

    @ExceptionHandler(DataAccessException.class)
    ProblemDetail redisUnavailable(DataAccessException ex) {
        log.warn("Redis unavailable: {}", ex.getClass().getSimpleName());
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
                "The color store did not answer; try again shortly.");
        problem.setTitle("Redis unavailable");
        return problem;
    }
}
