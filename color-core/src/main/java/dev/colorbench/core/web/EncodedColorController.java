package dev.colorbench.core.web;

import dev.colorbench.core.palette.ColorNames;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The HTTP contract of {@link ColorController}, for an {@link EncodedColorStore}: the same
 * mappings, names checked the same way by {@link ColorNames}, but the answer is the store's
 * bytes, which Spring MVC's byte-array converter writes as they are (with their length) under
 * {@code application/json}, instead of a list of colors that Jackson writes on every request.
 * Errors are answered by the same handlers, as problem bodies.
 */
@RestController
@RequestMapping(path = "/colors", produces = MediaType.APPLICATION_JSON_VALUE)
class EncodedColorController {

    private final EncodedColorStore store;

    EncodedColorController(EncodedColorStore store) {
        this.store = store;
    }

    @GetMapping
    byte[] colors(@RequestParam(required = false) String names) {
        return (names == null) ? store.findAll() : store.findByNames(ColorNames.list(names));
    }

    @GetMapping("/{name}")
    byte[] color(@PathVariable String name) {
        return store.findOne(ColorNames.single(name));
    }
}
