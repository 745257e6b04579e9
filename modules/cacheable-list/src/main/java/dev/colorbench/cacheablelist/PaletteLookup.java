package dev.colorbench.cacheablelist;

import java.util.List;

import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorKeys;

import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;

/**
 * The cached lookup of the whole palette. It is a bean of its own because {@code @Cacheable}
 * works through a proxy: a call from inside the same class would bypass the cache.
 */
@Service
class PaletteLookup {

    /** Cached as {@code colors::v4::palette}; on a miss, the palette is the source of truth. */
    @Cacheable(cacheNames = ColorKeys.PALETTE_CACHE_NAME, key = "'" + ColorKeys.PALETTE_CACHE_KEY + "'")
    public List<Color> palette() {
        return Palette.all();
    }
}
