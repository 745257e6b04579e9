package com.example.colors;

import org.redisson.client.RedisException;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class ColorController {

    private final ColorStore store;

    ColorController(ColorStore store) {
        this.store = store;
    }

    /** The store's JSON as it is: a warm request does no JSON work. */
    @GetMapping("/colors")
    ResponseEntity<byte[]> colors() {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(store.findAll());
    }

    /** Redis away, refusing, or slower than its 500 ms time-out, in Redisson's exceptions: a 503 problem at once. */
    @ExceptionHandler(RedisException.class)
    ProblemDetail storeUnavailable() {
        return ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, "The colors cannot be read now; try again shortly.");
    }
}
