package dev.colorbench.cacheablelist;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * {@code @Cacheable} on the whole palette: one cached value, {@code colors::v4::palette}, the JSON
 * array of all 148 colors. One {@code GET /colors} costs <b>1 GET</b> on a warm cache, one round
 * trip, and <b>1 GET + 1 SET</b> on a cold one; a subset ({@code /colors/{name}},
 * {@code ?names=}) is the same GET, filtered here. {@code @Cacheable} stays what it is, one key per
 * call; the pattern makes the one call return everything. It suits data that is read together
 * and changes together, as a palette does: any change rewrites the whole value, and every read,
 * even of one color, moves all of it (about 10 KB here) over the network.
 *
 * <p>Seeding puts the palette into the cache (1 SET), so the first request is already warm.
 *
 * <p>Bad data is healed by color-core, with no code here. The cached list is readable only as a
 * whole ({@code ColorCodec.isReadablePalette}): exactly 148 colors, the one at each position a
 * consistent color of the palette's name at that position. So a read can take a color by its
 * position, and never answers a partial, reordered or mixed-up palette. Anything else (not JSON,
 * another shape, one element of another color or shape, a key of another type) is a miss, which
 * costs <b>GET + DEL + SET</b> once, with one warning naming the key. A write Redis refuses
 * (memory full) is logged, and the palette the method computed is answered.
 */
@Component
class CacheableListColorStore implements ColorStore, ColorSeeder {

    /** Where each name sits in the palette, and so in every readable cached palette. */
    private static final Map<String, Integer> POSITION = positions();

    private final PaletteLookup lookup;

    private final Cache cache;

    CacheableListColorStore(PaletteLookup lookup, CacheManager cacheManager) {
        this.lookup = lookup;
        this.cache = Objects.requireNonNull(cacheManager.getCache(ColorKeys.PALETTE_CACHE_NAME));
    }

    @Override
    public List<Color> findAll() {
        return lookup.palette();
    }

    @Override
    public List<Color> findByNames(List<String> names) {
        List<Color> palette = lookup.palette();
        return names.stream().map(name -> palette.get(POSITION.get(name))).toList();
    }

    @Override
    public void seed() {
        cache.put(ColorKeys.PALETTE_CACHE_KEY, Palette.all());
    }

    private static Map<String, Integer> positions() {
        List<String> names = Palette.names();
        Map<String, Integer> positions = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            positions.put(names.get(i), i);
        }
        return Map.copyOf(positions);
    }
}
