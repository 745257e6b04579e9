package com.example.colors;

import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;

/**
 * The cached lookup of one color. It is a bean of its own because {@code @Cacheable} works through a proxy: a call from
 * inside {@link ColorStore} would bypass the cache.
 */
@Service
class ColorLookup {

    private final ColorSource source;

    ColorLookup(ColorSource source) {
        this.source = source;
    }

    /** Cached as colors::v1::&lt;name&gt;; on a miss the source answers, and the cache writes what it answered. */
    @Cacheable("colors::v1")
    public Color findByName(String name) {
        return source.find(name);
    }
}
