package dev.colorbench.cacheablenearcache;

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
 * cacheable-loop's store, unchanged: Spring Cache's {@code @Cacheable findByName}, called once per name.
 * Only the cache behind it differs ({@link CacheableNearCacheApplication}): each call is answered from
 * the near cache's local copy, so a warm {@code GET /colors} is 148 {@code Cache.get} calls and no
 * Redis command.
 *
 * <p>Seeding puts every color into the cache (148 SET). Each put takes its key out of this instance's
 * copy, so the first request after start-up reads each color once (148 MGET, one after another) and
 * keeps it.
 */
@Component
class CacheableNearCacheColorStore implements ColorStore, ColorSeeder {

    private final ColorLookup lookup;

    private final Cache cache;

    CacheableNearCacheColorStore(ColorLookup lookup, CacheManager cacheManager) {
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
