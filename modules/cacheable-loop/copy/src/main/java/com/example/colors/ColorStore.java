package com.example.colors;

import java.util.List;

import org.springframework.stereotype.Component;

/**
 * The pattern: {@code @Cacheable} caches one key per call, and one GET /colors calls it once per name. On a warm cache
 * that is 148 GETs of colors::v1::&lt;name&gt;, and 148 round trips, since each call waits for its reply before the
 * next is sent; a miss adds a SET. The round trips, not Redis, are what make it slow.
 */
@Component
class ColorStore {

    private final ColorLookup lookup;

    private final List<String> names;

    ColorStore(ColorLookup lookup, ColorSource source) {
        this.lookup = lookup;
        this.names = source.names();
    }

    List<Color> findAll() {
        return names.stream().map(lookup::findByName).toList();
    }
}
