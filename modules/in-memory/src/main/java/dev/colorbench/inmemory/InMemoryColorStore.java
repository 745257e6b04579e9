package dev.colorbench.inmemory;

import java.util.List;

import dev.colorbench.core.Color;
import dev.colorbench.core.ColorStore;
import dev.colorbench.core.Palette;

import org.springframework.stereotype.Component;

/**
 * The ceiling: the same contract served from the in-process palette. One request costs
 * <b>no Redis commands</b>, so what this module measures is the web stack and JSON writing
 * alone, the cost every Redis-backed module pays on top of its Redis round trips.
 */
@Component
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
