package dev.colorbench.core.web;

import java.util.List;

import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.ColorNames;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The HTTP contract, served the same way for every blocking pattern: the pattern itself lives
 * in the module's {@link ColorStore}, so this class is all the modules share of the web layer.
 */
@RestController
@RequestMapping(path = "/colors", produces = MediaType.APPLICATION_JSON_VALUE)
class ColorController {

    private final ColorStore store;

    ColorController(ColorStore store) {
        this.store = store;
    }

    @GetMapping
    List<Color> colors(@RequestParam(required = false) String names) {
        return (names == null) ? store.findAll() : store.findByNames(ColorNames.list(names));
    }

    @GetMapping("/{name}")
    Color color(@PathVariable String name) {
        return store.findByNames(List.of(ColorNames.single(name))).get(0);
    }
}
