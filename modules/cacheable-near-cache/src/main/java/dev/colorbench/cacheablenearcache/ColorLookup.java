package dev.colorbench.cacheablenearcache;

import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorKeys;

import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;

/**
 * The cached single-key lookup, cacheable-loop's. It is a bean of its own because {@code @Cacheable} works
 * through a proxy: a call from inside the same class would bypass the cache.
 */
@Service
class ColorLookup {

    /** Cached as {@code colors::v1::<name>}; on a miss, the palette is the source of truth. */
    @Cacheable(cacheNames = ColorKeys.CACHE_NAME)
    public Color findByName(String name) {
        return Palette.find(name).orElseThrow();
    }
}
