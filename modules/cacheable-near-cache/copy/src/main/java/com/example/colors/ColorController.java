package com.example.colors;

import java.util.List;

import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpStatus;
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

    @GetMapping("/colors")
    List<Color> colors() {
        return store.findAll();
    }

    /** Redis away, refusing, or slower than its 500 ms time-out: a 503 problem at once, never a 500 or a hang. */
    @ExceptionHandler(DataAccessException.class)
    ProblemDetail storeUnavailable() {
        return ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, "The colors cannot be read now; try again shortly.");
    }
}
