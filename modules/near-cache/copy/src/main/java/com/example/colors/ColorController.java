package com.example.colors;

import org.springframework.dao.DataAccessException;
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

    /** The kept JSON array as it is: Spring MVC's byte-array converter writes it, with no Jackson on the way out. */
    @GetMapping(path = "/colors", produces = MediaType.APPLICATION_JSON_VALUE)
    byte[] colors() {
        return store.findAll();
    }

    /** Redis away, refusing, or slower than its 500 ms time-out: a 503 problem at once, never a 500 or a hang. */
    @ExceptionHandler(DataAccessException.class)
    ProblemDetail storeUnavailable() {
        return ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, "The colors cannot be read now; try again shortly.");
    }
}
