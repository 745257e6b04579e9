package dev.colorbench.cacheablemultiget;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.colorbench.core.ColorSeeder;
import dev.colorbench.core.cache.MultiGetRedisCache;
import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorCodec;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.core.redis.Healing;
import dev.colorbench.core.redis.RedisReplies;
import dev.colorbench.core.redis.StoredColors;
import dev.colorbench.core.web.ColorStore;

import org.springframework.cache.Cache;
import org.springframework.cache.Cache.ValueWrapper;
import org.springframework.cache.CacheManager;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * Spring's cache abstraction with a bulk read: the color cache of cacheable-loop
 * ({@code colors::v1::<name>}, the same serializer, the same keys), read with color-core's
 * {@link MultiGetRedisCache#getAll}. One {@code GET /colors} costs <b>1 MGET</b> of all 148 keys on
 * a warm cache, one round trip, instead of the 148 GETs of {@code @Cacheable} in a loop. A subset
 * costs 1 MGET of just those keys. On a cold cache it costs <b>1 MGET + 1 EXISTS + 1 MSET</b>, three
 * round trips: the misses are loaded from the palette and written back with one {@link
 * MultiGetRedisCache#putAll} instead of a SET each; the EXISTS of the keys MGET found empty is
 * {@code getAll} telling a missing key from one of another type (MGET answers nil for both).
 *
 * <p>Use it where {@code @Cacheable} already caches one entry per key and a caller needs many at
 * once: the entries stay individually cached and individually readable by the annotation (a
 * cacheable-loop reading the same Redis shares every key with this module), and a request pays one
 * round trip instead of one per key.
 *
 * <p>Seeding is 1 MSET of all keys. A read never serves a partial list: each value is checked
 * against its own key ({@link ColorCodec#isReadable}), and a missing or unreadable one (not JSON,
 * another shape, another color's JSON, or a key of another type, which costs <b>1 TYPE</b> per empty
 * key to find) is answered from the palette and written back with one MSET of just those keys,
 * each unreadable key with one warning naming it. A write Redis refuses (memory full) is logged and
 * the palette's answer stands.
 *
 * <p><b>On a Redis Cluster</b> the MGET of {@code getAll} is split by Lettuce into one MGET per slot: the 148
 * {@code colors::v1::<name>} keys lie in 147 slots ({@code mediumspringgreen} and {@code seashell} share one),
 * so <b>147 MGETs</b> over the three masters, in a few dozen socket reads summed or more, which vary with thread scheduling (docs/cluster.md). The keys stay
 * the cache's own ({@code <cache name>::<key>}), shared with cacheable-loop and cacheable-async; a hash tag would
 * mean another cache prefix for all three.
 */
@Component
class CacheableMultigetColorStore implements ColorStore, ColorSeeder {

    private final MultiGetRedisCache cache;

    CacheableMultigetColorStore(CacheManager cacheManager) {
        Cache cache = cacheManager.getCache(ColorKeys.CACHE_NAME);
        if (!(cache instanceof MultiGetRedisCache multiGet)) {
            throw new IllegalStateException("The color cache must be a MultiGetRedisCache (color-core's cache manager), not " + cache);
        }
        this.cache = multiGet;
    }

    @Override
    public List<Color> findAll() {
        return read(Palette.names());
    }

    @Override
    public List<Color> findByNames(List<String> names) {
        return read(names);
    }

    private List<Color> read(List<String> names) {
        StoredColors stored = check(names, cache.getAll(names));
        if (!stored.complete()) {
            heal(stored);
        }
        return stored.colors();
    }

    /** Each value read for its own name: a readable color is answered, anything else is the palette's color and noted. */
    private static StoredColors check(List<String> names, MultiGetRedisCache.Found found) {
        List<Color> colors = new ArrayList<>(names.size());
        Set<String> missing = new LinkedHashSet<>();
        Set<String> unreadable = new LinkedHashSet<>();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            ValueWrapper value = found.values().get(i);
            if (value != null && value.get() instanceof Color color && ColorCodec.isReadable(name, color)) {
                colors.add(color);
                continue;
            }
            colors.add(Palette.find(name).orElseThrow());
            ((value != null || found.unreadable().contains(name)) ? unreadable : missing).add(name);
        }
        return new StoredColors(colors, List.copyOf(missing), List.copyOf(unreadable));
    }

    private void heal(StoredColors stored) {
        Healing.report(stored, List.of(), ColorKeys::cacheKey);
        Map<String, Color> colors = byName(Palette.colors(stored.toWrite()));
        try {
            cache.putAll(colors);
        }
        catch (DataAccessException ex) {
            if (!RedisReplies.isRefusedWrite(ex)) {
                throw ex;
            }
            Healing.writeRefused(colors.size(), ex);
        }
    }

    /** Writes every key; a refused write fails the seeding, which start-up logs and a read repeats. */
    @Override
    public void seed() {
        cache.putAll(byName(Palette.all()));
    }

    private static Map<String, Color> byName(List<Color> colors) {
        Map<String, Color> byName = new LinkedHashMap<>();
        colors.forEach(color -> byName.put(color.name(), color));
        return byName;
    }
}
