package com.example.colors;

import redis.clients.jedis.exceptions.JedisException;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class ColorController {

    private final ColorStore store;

    ColorController(ColorStore store) {
        this.store = store;
    }

    /** The bytes as they are: Spring MVC's byte-array converter writes them, with their length. */
    @GetMapping(path = "/colors", produces = MediaType.APPLICATION_JSON_VALUE)
    byte[] colors() {
        return store.findAll();
    }

    /**
     * Redis away, answering an error, slower than its 400 ms time-out, or no pooled connection free within 200 ms: a 503
     * problem at once, never a 500 or a hang. Jedis throws its own exceptions, not Spring's DataAccessException.
     */
    @ExceptionHandler(JedisException.class)
    ProblemDetail storeUnavailable() {
        return ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, "The colors cannot be read now; try again shortly.");
    }
}
