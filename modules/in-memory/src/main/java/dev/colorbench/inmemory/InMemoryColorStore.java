package dev.colorbench.inmemory;

import java.util.List;

import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.web.ColorStore;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The in-memory palette served as objects ({@code colorbench.render=objects}, the benchmark's
 * {@code in-memory+objects} row): one request costs <b>no Redis commands</b>, but Jackson writes
 * the 148 colors on every request. What it measures is the web stack plus JSON writing: the
 * ceiling of the modules that decode Redis values into colors and let Spring MVC write them
 * (template-mget, pipelined-get, hash-hmget, ...).
 */
@Component
@ConditionalOnProperty(name = InMemoryApplication.RENDER, havingValue = "objects")
class InMemoryColorStore implements ColorStore {

    @Override
    public List<Color> findAll() {
        return Palette.all();
    }

    @Override
    public List<Color> findByNames(List<String> names) {
        return Palette.colors(names);
    }
}
