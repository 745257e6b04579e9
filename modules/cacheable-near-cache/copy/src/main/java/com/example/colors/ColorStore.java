package com.example.colors;

import java.util.List;

import org.springframework.stereotype.Component;

/**
 * The pattern, the source post's loop unchanged: {@code @Cacheable} caches one key per call, and one GET /colors calls it
 * once per name. Behind it is the near cache library's cache manager, so on a warm cache those 148 calls are answered
 * from the local copy and send Redis nothing; a color the copy lacks is 1 MGET of colors::v1::&lt;name&gt;, and a miss
 * in Redis too adds a SET.
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
