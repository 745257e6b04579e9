package com.example.colors;

import java.util.List;

import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Component;

/**
 * The pattern: {@code @Cacheable} on the whole list. {@code @Cacheable} still caches one value per call, and this call
 * returns everything, so one GET /colors is 1 GET of colors::v4::palette, one round trip, on a warm cache; a miss adds
 * 1 SET. Every read moves the whole palette, about 10 KB, and any change rewrites all of it.
 */
@Component
class ColorStore {

    private final ColorSource source;

    ColorStore(ColorSource source) {
        this.source = source;
    }

    /** Cached as colors::v4::palette, the JSON array GET /colors answers; on a miss the source answers. */
    @Cacheable(cacheNames = "colors::v4", key = "'palette'")
    public List<Color> findAll() {
        return source.all();
    }
}
