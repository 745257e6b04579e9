package dev.colorbench.cacheableloop;

import java.util.List;
import java.util.Objects;

import dev.colorbench.core.ColorSeeder;
import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.core.web.ColorStore;

import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;
import org.springframework.stereotype.Component;

/**
 * Spring Cache's {@code @Cacheable findByName}, called once per name. {@code @Cacheable} caches
 * one key per call, so one {@code GET /colors} costs <b>148 GET</b> on a warm cache, one round
 * trip after another, and <b>148 GET + 148 SET</b> on a cold one. This is the source post's
 * case 1; the round trips, not Redis, are what make it slow.
 *
 * <p>Seeding puts every color into the cache (148 SET), so the first request is already warm.
 *
 * <p>Bad data is healed by color-core, with no code here: a cached value that is not a readable
 * color for its key (not JSON, another shape, another color's JSON, a key of another type) is a
 * miss, so that color costs <b>GET + DEL + SET</b> once, with a warning naming the key. A cache
 * write Redis refuses (memory full) is logged, and the color the method computed is answered.
 */
@Component
class CacheableLoopColorStore implements ColorStore, ColorSeeder {

    private final ColorLookup lookup;

    private final Cache cache;

    CacheableLoopColorStore(ColorLookup lookup, CacheManager cacheManager) {
        this.lookup = lookup;
        this.cache = Objects.requireNonNull(cacheManager.getCache(ColorKeys.CACHE_NAME));
    }

    @Override
    public List<Color> findAll() {
        return findByNames(Palette.names());
    }

    @Override
    public List<Color> findByNames(List<String> names) {
        return names.stream().map(lookup::findByName).toList();
    }

    @Override
    public void seed() {
        Palette.all().forEach(color -> cache.put(color.name(), color));
    }
}
