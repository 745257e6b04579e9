package dev.colorbench.nearcache;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.colorbench.core.ColorSeeder;
import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.EncodedColors;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorCodec;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.core.redis.JsonKeyHealing;
import dev.colorbench.core.redis.JsonKeys;
import dev.colorbench.core.redis.StoredColors;
import dev.colorbench.core.web.EncodedColorStore;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The contract answered from a local copy that Redis invalidates ({@link LocalCopy}, kept by
 * {@link Tracking}), in front of the same {@code colors::v3::<name>} JSON strings template-mget reads.
 * Each color is kept as its canonical JSON, and {@code GET /colors} as the joined array, so a warm
 * request does no JSON work at all: it hands the same bytes to Spring MVC, as the in-memory ceiling does.
 *
 * <p>What one request costs in Redis:
 * <ul>
 * <li><b>warm</b> (every color asked for is in the copy): <b>no command, no round trip</b>, for
 * {@code GET /colors}, a subset and one color alike;</li>
 * <li><b>cold</b> (a new copy, or colors invalidated since they were read): <b>1 MGET of just the
 * missing keys</b>, one round trip; the first {@code GET /colors} of a session reads all 148, a request
 * after another writer changed one color reads that one key. What Redis answers readable goes into the
 * copy, unless that color was invalidated while the MGET was under way;</li>
 * <li><b>while tracking is not active</b> (starting, or the tracking connection lost and not yet back):
 * 1 MGET of every key asked for, as template-mget, nothing cached; a 503 if Redis is away.</li>
 * </ul>
 * Concurrent requests that miss the same colors each send their own MGET; nothing is coalesced. On a
 * Redis Cluster the MGET goes through Spring Data Redis's cluster connection, and Lettuce splits it into
 * one MGET per slot, sent to the masters together (a whole cold palette: 148 MGETs); a warm request
 * still costs nothing, on any master.
 *
 * <p>What the MGET returns is decoded and checked by the core's {@link ColorCodec}, as in template-mget,
 * and the answer is never partial: a missing or unreadable value is answered from the palette and
 * written back by the core's {@link JsonKeyHealing} (<b>+1 EXISTS</b> of the empty keys, <b>+1 TYPE</b>
 * each if any is there, <b>+1 MSET</b> of just those keys; one warning per unreadable key). Such an
 * answer is not kept: the next request reads the rewritten key, after the invalidation its own
 * rewrite causes. A readable color that differs from the palette (another writer's) is served and kept.
 *
 * <p>Seeding is 1 MSET of all keys; like every write under the prefix, it invalidates what it wrote.
 */
@Component
class NearCacheColorStore implements EncodedColorStore, ColorSeeder {

    /** Each color's key, encoded once. */
    private static final Map<String, byte[]> KEYS = keys();

    private final RedisTemplate<String, byte[]> template;

    private final ColorCodec codec;

    private final Tracking tracking;

    /** The codec's JSON of each palette color: the answer for a missing or unreadable value. */
    private final Map<String, byte[]> fromPalette = new HashMap<>();

    NearCacheColorStore(RedisTemplate<String, byte[]> colorTemplate, ColorCodec codec, Tracking tracking) {
        this.template = colorTemplate;
        this.codec = codec;
        this.tracking = tracking;
        Palette.all().forEach(color -> fromPalette.put(color.name(), codec.encode(color)));
    }

    @Override
    public byte[] findAll() {
        LocalCopy copy = tracking.copy();
        if (copy == null) {
            return EncodedColors.array(read(null, Palette.names()).colors());
        }
        byte[] kept = copy.palette();
        if (kept != null) {
            return kept;
        }
        long changes = copy.changes();
        Answer answer = read(copy, Palette.names());
        byte[] palette = EncodedColors.array(answer.colors());
        if (answer.asStored()) {
            copy.keepPalette(changes, palette);
        }
        return palette;
    }

    @Override
    public byte[] findByNames(List<String> names) {
        return EncodedColors.array(read(tracking.copy(), names).colors());
    }

    @Override
    public byte[] findOne(String name) {
        LocalCopy copy = tracking.copy();
        byte[] kept = (copy == null) ? null : copy.color(name);
        return (kept != null) ? kept : read(copy, List.of(name)).colors().get(0);
    }

    /**
     * Each name's color as canonical JSON, in the order asked: from the copy where it holds it, the
     * rest with one MGET.
     *
     * @param asStored whether every color is what Redis holds (none answered from the palette)
     */
    private record Answer(List<byte[]> colors, boolean asStored) {
    }

    private Answer read(LocalCopy copy, List<String> names) {
        byte[][] colors = new byte[names.size()][];
        Set<String> missing = null;
        for (int i = 0; i < colors.length; i++) {
            String name = names.get(i);
            colors[i] = (copy == null) ? null : copy.color(name);
            if (colors[i] == null) {
                if (missing == null) {
                    missing = new LinkedHashSet<>();
                }
                missing.add(name);
            }
        }
        if (missing == null) {
            return new Answer(Arrays.asList(colors), true);
        }
        Map<String, byte[]> fetched = new HashMap<>();
        boolean asStored = fetch(copy, new ArrayList<>(missing), fetched);
        for (int i = 0; i < colors.length; i++) {
            if (colors[i] == null) {
                colors[i] = fetched.get(names.get(i));
            }
        }
        return new Answer(Arrays.asList(colors), asStored);
    }

    /**
     * One MGET of {@code names} (each once), decoded by the codec into {@code fetched}; what is
     * readable is put into {@code copy} (if any) against each color's generation as it was before
     * the MGET was sent. Missing and unreadable values are answered from the palette and healed.
     *
     * @return whether every value was readable
     */
    private boolean fetch(LocalCopy copy, List<String> names, Map<String, byte[]> fetched) {
        long[] generations = new long[names.size()];
        byte[][] keys = new byte[names.size()][];
        for (int i = 0; i < keys.length; i++) {
            generations[i] = (copy == null) ? 0 : copy.generation(names.get(i));
            keys[i] = KEYS.get(names.get(i));
        }
        List<byte[]> values = template.execute((RedisCallback<List<byte[]>>) connection -> connection.stringCommands().mGet(keys));
        if (values == null || values.size() != names.size()) {
            throw new IllegalStateException("MGET of " + names.size() + " keys answered " + (values == null ? "nothing" : values.size() + " values"));
        }
        StoredColors stored = codec.decodeAll(names, values);
        Set<String> fromPaletteOnly = stored.complete() ? Set.of() : new HashSet<>(stored.toWrite());
        List<Color> colors = stored.colors();
        for (int i = 0; i < keys.length; i++) {
            String name = names.get(i);
            if (fromPaletteOnly.contains(name)) {
                fetched.put(name, fromPalette.get(name));
            }
            else {
                byte[] json = codec.encode(colors.get(i));
                fetched.put(name, json);
                if (copy != null) {
                    copy.put(name, generations[i], json);
                }
            }
        }
        if (!stored.complete()) {
            JsonKeyHealing.writeBack(template, codec, JsonKeys.plain(), stored.missing(), stored.unreadable());
        }
        return stored.complete();
    }

    /** Writes every key; a refused write fails the seeding, which start-up logs and a read repeats. */
    @Override
    public void seed() {
        template.opsForValue().multiSet(codec.encodeAll(Palette.all(), ColorKeys::jsonKey));
    }

    private static Map<String, byte[]> keys() {
        Map<String, byte[]> keys = new HashMap<>();
        Palette.names().forEach(name -> keys.put(name, ColorKeys.jsonKey(name).getBytes(StandardCharsets.UTF_8)));
        return Map.copyOf(keys);
    }
}
