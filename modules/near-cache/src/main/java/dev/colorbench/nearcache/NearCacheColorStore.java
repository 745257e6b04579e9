package dev.colorbench.nearcache;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.colorbench.core.ColorSeeder;
import dev.colorbench.core.palette.EncodedColors;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorCodec;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.core.redis.JsonKeyHealing;
import dev.colorbench.core.redis.JsonKeys;
import dev.colorbench.core.web.EncodedColorStore;
import dev.colorbench.redis.nearcache.Derived;
import dev.colorbench.redis.nearcache.NearCache;
import dev.colorbench.redis.nearcache.NearCacheTracking;
import dev.colorbench.redis.nearcache.Values;

import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The contract answered from a near cache (the redis-near-cache library's {@link NearCache}) in front
 * of the same {@code colors::v3::<name>} JSON strings template-mget reads. Each color is kept as its
 * canonical JSON, and {@code GET /colors} as the joined array ({@link Derived}), so a warm request
 * does no JSON work at all: it hands the same bytes to Spring MVC, as the in-memory ceiling does.
 *
 * <p>What one request costs in Redis is the library's: warm, nothing; cold, 1 MGET of just the
 * missing keys; while tracking is not active, 1 MGET of every key asked for. What this store adds
 * is the contract's: names mapped to keys, each value decoded and checked by the core's
 * {@link ColorCodec}, and never a partial answer. A missing or unreadable value is answered from the
 * palette and written back by the core's {@link JsonKeyHealing} (<b>+1 EXISTS</b> of the empty keys,
 * <b>+1 TYPE</b> each if any is there, <b>+1 MSET</b> of just those keys; one warning per unreadable
 * key). Such an answer is not kept: the next request reads the rewritten key, after the invalidation
 * its own rewrite causes. A readable color that differs from the palette (another writer's) is served
 * and kept.
 *
 * <p>Seeding is 1 MSET of all keys; like every write under the prefix, it invalidates what it wrote.
 */
@Component
class NearCacheColorStore implements EncodedColorStore, ColorSeeder {

    /** Each color's key, by name. */
    private static final Map<String, String> KEYS = keys();

    /** Each key's color name. */
    private static final Map<String, String> NAMES = names();

    private static final List<String> PALETTE_KEYS = Palette.names().stream().map(KEYS::get).toList();

    private final RedisTemplate<String, byte[]> template;

    private final ColorCodec codec;

    private final NearCache<byte[]> cache;

    /** The whole palette's JSON array, joined once per copy and kept until any color changes. */
    private final Derived<byte[]> palette;

    /** The codec's JSON of each palette color: the answer for a missing or unreadable value. */
    private final Map<String, byte[]> fromPalette = new HashMap<>();

    NearCacheColorStore(RedisTemplate<String, byte[]> colorTemplate, ColorCodec codec, NearCacheTracking tracking) {
        this.template = colorTemplate;
        this.codec = codec;
        // on a miss only: what Redis holds, checked, as the canonical JSON the copy keeps and serves
        this.cache = tracking.newCache("colors", (key, stored) -> codec.decode(NAMES.get(key), stored).map(codec::encode).orElse(null));
        this.palette = cache.derive(PALETTE_KEYS, values -> EncodedColors.array(answer(PALETTE_KEYS, values)));
        Palette.all().forEach(color -> fromPalette.put(color.name(), codec.encode(color)));
    }

    @Override
    public byte[] findAll() {
        return palette.get();
    }

    @Override
    public byte[] findByNames(List<String> names) {
        List<String> keys = new ArrayList<>(names.size());
        names.forEach(name -> keys.add(KEYS.get(name)));
        return EncodedColors.array(answer(keys, cache.getAll(keys)));
    }

    @Override
    public byte[] findOne(String name) {
        String key = KEYS.get(name);
        byte[] kept = cache.getIfPresent(key);
        return (kept != null) ? kept : answer(List.of(key), cache.getAll(List.of(key))).get(0);
    }

    /** The cache, for the tests. */
    NearCache<byte[]> cache() {
        return cache;
    }

    /**
     * Each color's JSON, in the order of {@code keys}: what Redis held, or the palette's for a missing
     * or unreadable value, which is then written back.
     */
    private List<byte[]> answer(List<String> keys, Values<byte[]> read) {
        if (read.complete()) {
            return read.values();
        }
        List<byte[]> colors = new ArrayList<>(read.values());
        for (int i = 0; i < colors.size(); i++) {
            if (colors.get(i) == null) {
                colors.set(i, fromPalette.get(NAMES.get(keys.get(i))));
            }
        }
        JsonKeyHealing.writeBack(template, codec, JsonKeys.plain(), namesOf(read.missing()), namesOf(read.unreadable()));
        return colors;
    }

    private static List<String> namesOf(List<String> keys) {
        return keys.stream().map(NAMES::get).toList();
    }

    /** Writes every key; a refused write fails the seeding, which start-up logs and a read repeats. */
    @Override
    public void seed() {
        template.opsForValue().multiSet(codec.encodeAll(Palette.all(), ColorKeys::jsonKey));
    }

    private static Map<String, String> keys() {
        Map<String, String> keys = new HashMap<>();
        Palette.names().forEach(name -> keys.put(name, ColorKeys.jsonKey(name)));
        return Map.copyOf(keys);
    }

    private static Map<String, String> names() {
        Map<String, String> names = new HashMap<>();
        Palette.names().forEach(name -> names.put(ColorKeys.jsonKey(name), name));
        return Map.copyOf(names);
    }
}
