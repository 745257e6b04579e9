package dev.colorbench.core.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.EncodedColors;
import dev.colorbench.core.palette.Palette;

import org.springframework.data.redis.core.RedisTemplate;

/**
 * The answer a module builds from the raw values of one MGET of the {@code colors::v3::<name>} JSON
 * strings, without turning them into objects (mget-raw, mget-floor). The modules differ only in how
 * they send the MGET; what they do with its reply is here, once.
 *
 * <p>A value equal to the palette's own JSON of its color, or else the canonical JSON of a
 * consistent color under its key's name with the palette's padding ({@link CanonicalColorJson}), is copied into the answer as
 * it is. A value in another shape goes to the {@link ColorCodec}: served re-encoded if readable, left
 * as it is in Redis. Missing and unreadable values are answered from the palette and written back
 * ({@link JsonKeyHealing}: 1 EXISTS, 1 TYPE per empty key if any exists, 1 MSET of just those keys).
 * So the answer is never partial and never broken JSON.
 */
public final class RawJsonColors {

    private final RedisTemplate<String, byte[]> template;

    private final ColorCodec codec;

    private final JsonKeys keys;

    /** Each color's key in the layout configured, encoded once. */
    private final Map<String, byte[]> encodedKeys;

    /** What each color's canonical JSON starts with. */
    private final Map<String, byte[]> heads;

    /** What each color's canonical JSON ends with: the palette's padding, if any, and the brace. */
    private final Map<String, byte[]> tails;

    /** The codec's JSON of each palette color: the answer for a missing or unreadable value, and what seeding writes. */
    private final Map<String, byte[]> fromPalette;

    private final byte[][] allKeys;

    private final byte[][] allHeads;

    private final byte[][] allTails;

    private final byte[][] allFromPalette;

    /**
     * @throws IllegalStateException if the application's JSON mapper does not write the palette in the canonical shape
     *         these values are copied in
     */
    public RawJsonColors(RedisTemplate<String, byte[]> template, ColorCodec codec, JsonKeys keys) {
        this.template = template;
        this.codec = codec;
        this.keys = keys;
        this.encodedKeys = byName(name -> keys.key(name).getBytes(StandardCharsets.UTF_8));
        this.heads = byName(CanonicalColorJson::head);
        this.tails = byName(name -> CanonicalColorJson.tail(Palette.find(name).orElseThrow().padding()));
        this.fromPalette = byName(name -> codec.encode(Palette.find(name).orElseThrow()));
        fromPalette.forEach((name, json) -> {
            if (!CanonicalColorJson.isCanonical(heads.get(name), json, tails.get(name))) {
                throw new IllegalStateException("The application's JSON mapper writes " + name + " as "
                        + new String(json, StandardCharsets.UTF_8) + ", not in the canonical shape the raw values are copied in");
            }
        });
        this.allKeys = each(Palette.names(), encodedKeys);
        this.allHeads = each(Palette.names(), heads);
        this.allTails = each(Palette.names(), tails);
        this.allFromPalette = each(Palette.names(), fromPalette);
    }

    /** The keys of the whole palette, in canonical order, encoded once: do not change the array. */
    public byte[][] allKeys() {
        return allKeys;
    }

    /** The keys of {@code names}, in that order. */
    public byte[][] keysOf(List<String> names) {
        return each(names, encodedKeys);
    }

    /** The JSON array of the whole palette from an MGET of {@link #allKeys()}. */
    public byte[] allAsArray(List<byte[]> values) {
        return EncodedColors.array(elements(Palette.names(), allHeads, allTails, allFromPalette, values));
    }

    /** The JSON array of {@code names} from an MGET of {@link #keysOf(List) their keys}. */
    public byte[] asArray(List<String> names, List<byte[]> values) {
        return EncodedColors.array(elements(names, each(names, heads), each(names, tails), each(names, fromPalette), values));
    }

    /** The JSON object of {@code name} from an MGET (or GET) of its key. */
    public byte[] one(String name, List<byte[]> values) {
        return elements(List.of(name), new byte[][] { heads.get(name) }, new byte[][] { tails.get(name) }, new byte[][] { fromPalette.get(name) },
                values).get(0);
    }

    /** Writes every key with 1 MSET of the codec's JSON; a refused write fails the seeding, which start-up logs and a read repeats. */
    public void seed() {
        template.opsForValue().multiSet(codec.encodeAll(Palette.all(), keys::key));
    }

    /** Each name's color as canonical JSON, in order: from Redis where readable, else from the palette (and healed). */
    private List<byte[]> elements(List<String> names, byte[][] headsOfNames, byte[][] tailsOfNames, byte[][] paletteOfNames, List<byte[]> values) {
        if (values == null || values.size() != names.size()) {
            throw new IllegalStateException("MGET of " + names.size() + " keys answered " + (values == null ? "nothing" : values.size() + " values"));
        }
        byte[][] elements = new byte[names.size()][];
        Set<String> missing = null;
        Set<String> unreadable = null;
        for (int i = 0; i < elements.length; i++) {
            byte[] value = values.get(i);
            if (value != null && (Arrays.equals(value, paletteOfNames[i]) || CanonicalColorJson.isCanonical(headsOfNames[i], value, tailsOfNames[i]))) {
                elements[i] = value;
                continue;
            }
            String name = names.get(i);
            Optional<Color> readable = (value == null) ? Optional.empty() : codec.decode(name, value);
            if (readable.isPresent()) {
                elements[i] = codec.encode(readable.get());
            }
            else {
                if (value == null) {
                    missing = add(missing, name);
                }
                else {
                    unreadable = add(unreadable, name);
                }
                elements[i] = paletteOfNames[i];
            }
        }
        if (missing != null || unreadable != null) {
            JsonKeyHealing.writeBack(template, codec, keys, listOf(missing), listOf(unreadable));
        }
        return Arrays.asList(elements);
    }

    private static Map<String, byte[]> byName(Function<String, byte[]> bytes) {
        Map<String, byte[]> byName = new HashMap<>();
        Palette.names().forEach(name -> byName.put(name, bytes.apply(name)));
        return Map.copyOf(byName);
    }

    private static byte[][] each(List<String> names, Map<String, byte[]> byName) {
        byte[][] each = new byte[names.size()][];
        for (int i = 0; i < each.length; i++) {
            each[i] = byName.get(names.get(i));
        }
        return each;
    }

    private static Set<String> add(Set<String> names, String name) {
        Set<String> set = (names == null) ? new LinkedHashSet<>() : names;
        set.add(name);
        return set;
    }

    private static List<String> listOf(Set<String> names) {
        return (names == null) ? List.of() : new ArrayList<>(names);
    }
}
