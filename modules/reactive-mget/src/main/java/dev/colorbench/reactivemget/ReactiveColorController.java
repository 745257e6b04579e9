package dev.colorbench.reactivemget;

import java.util.List;

import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.ColorNames;
import reactor.core.publisher.Mono;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The shared contract, answered with {@link Mono}s instead of the core's blocking controller. */
@RestController
@RequestMapping(path = "/colors", produces = MediaType.APPLICATION_JSON_VALUE)
class ReactiveColorController {

    private final ReactiveMgetColorStore store;

    ReactiveColorController(ReactiveMgetColorStore store) {
        this.store = store;
    }

    @GetMapping
    Mono<List<Color>> colors(@RequestParam(required = false) String names) {
        return (names == null) ? store.findAll() : store.findByNames(ColorNames.list(names));
    }

    @GetMapping("/{name}")
    Mono<Color> color(@PathVariable String name) {
        return store.findByNames(List.of(ColorNames.single(name))).map(colors -> colors.get(0));
    }
}
