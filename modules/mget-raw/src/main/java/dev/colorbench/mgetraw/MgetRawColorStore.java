package dev.colorbench.mgetraw;

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

import dev.colorbench.core.ColorSeeder;
import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.EncodedColors;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorCodec;
import dev.colorbench.core.redis.JsonKeyHealing;
import dev.colorbench.core.redis.JsonKeys;
import dev.colorbench.core.web.EncodedColorStore;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.stereotype.Component;

/**
 * One MGET, its values copied straight into the answer. One {@code GET /colors} costs <b>1 MGET</b>
 * of all 148 {@code colors::v3::<name>} keys, one round trip, like template-mget; what differs is
 * everything after it. Nothing is turned into a {@link Color} and written back out by Jackson: each
 * value Redis returns is checked on its bytes ({@link CanonicalColorJson}) and, when it is the
 * canonical JSON of a consistent color under its own name, copied as it is into one array buffer of
 * the exact size ({@link EncodedColors#array}), which Spring MVC writes to the response as it is.
 * The keys are encoded once, at start-up, and the MGET goes to the connection without the
 * template's serializers. A subset costs 1 MGET of just those keys, one color 1 MGET of its key.
 *
 * <p>It still never serves a partial list or broken JSON. A value in another shape (spaces, other
 * property order, extra properties) goes to the core's {@link ColorCodec}: if the codec reads it
 * as a color for its key, that color is served, re-encoded canonically (and left as it is in
 * Redis); if not, it is unreadable. Missing and unreadable values are answered from the palette
 * and written back with <b>1 MSET of just those keys</b>, as in template-mget: before that,
 * <b>1 EXISTS</b> of the keys MGET found empty tells Redis restarting empty from a key holding
 * another type (MGET answers nil for it too), which costs <b>1 TYPE per empty key</b> to name it
 * in the warning. A write Redis refuses (memory full) is logged and the palette's answer stands.
 *
 * <p>Seeding is 1 MSET of all keys, the codec's JSON.
 *
 * <p><b>On a Redis Cluster</b> it reads as template-mget does, in either layout ({@link JsonKeys}): the
 * connection's {@code mGet} is Lettuce's cluster MGET, one MGET per slot, so <b>148 MGETs</b> over the three
 * masters for the plain keys (in a few dozen socket reads at most, varying with thread scheduling), or, with
 * {@code colorbench.redis.hash-tag=true}, <b>1 MGET</b> on the one master holding {@code colors::{v3}::*}.
 */
@Component
class MgetRawColorStore implements EncodedColorStore, ColorSeeder {

    /** What each color's canonical JSON starts with. */
    private static final Map<String, byte[]> HEADS = byName(CanonicalColorJson::head);

    private static final byte[][] ALL_HEADS = each(Palette.names(), HEADS);

    private final RedisTemplate<String, byte[]> template;

    private final ColorCodec codec;

    private final JsonKeys keys;

    /** Each color's key in the layout configured, encoded once. */
    private final Map<String, byte[]> encodedKeys;

    private final byte[][] allKeys;

    /** The codec's JSON of each palette color, by name: the answer for a missing or unreadable value, and what seeding writes. */
    private final Map<String, byte[]> fromPalette = new HashMap<>();

    MgetRawColorStore(RedisTemplate<String, byte[]> colorTemplate, ColorCodec codec, JsonKeys keys) {
        this.template = colorTemplate;
        this.codec = codec;
        this.keys = keys;
        this.encodedKeys = byName(name -> keys.key(name).getBytes(StandardCharsets.UTF_8));
        this.allKeys = each(Palette.names(), encodedKeys);
        for (Color color : Palette.all()) {
            byte[] json = codec.encode(color);
            if (!CanonicalColorJson.isCanonical(CanonicalColorJson.head(color.name()), json)) {
                throw new IllegalStateException("The application's JSON mapper writes " + color.name() + " as "
                        + new String(json, StandardCharsets.UTF_8) + ", not in the canonical shape this module copies");
            }
            fromPalette.put(color.name(), json);
        }
    }

    @Override
    public byte[] findAll() {
        return EncodedColors.array(read(Palette.names(), allKeys, ALL_HEADS));
    }

    @Override
    public byte[] findByNames(List<String> names) {
        return EncodedColors.array(read(names, each(names, encodedKeys), each(names, HEADS)));
    }

    @Override
    public byte[] findOne(String name) {
        return read(List.of(name), each(List.of(name), encodedKeys), each(List.of(name), HEADS)).get(0);
    }

    /** Each name's color as canonical JSON, in order: from Redis where readable, else from the palette (and healed). */
    private List<byte[]> read(List<String> names, byte[][] keysOfNames, byte[][] heads) {
        List<byte[]> values = template.execute((RedisCallback<List<byte[]>>) connection -> connection.stringCommands().mGet(keysOfNames));
        if (values == null || values.size() != names.size()) {
            throw new IllegalStateException("MGET of " + names.size() + " keys answered " + (values == null ? "nothing" : values.size() + " values"));
        }
        byte[][] elements = new byte[names.size()][];
        Set<String> missing = null;
        Set<String> unreadable = null;
        for (int i = 0; i < elements.length; i++) {
            byte[] value = values.get(i);
            if (value != null && CanonicalColorJson.isCanonical(heads[i], value)) {
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
                elements[i] = fromPalette.get(name);
            }
        }
        if (missing != null || unreadable != null) {
            JsonKeyHealing.writeBack(template, codec, keys, listOf(missing), listOf(unreadable));
        }
        return Arrays.asList(elements);
    }

    /** Writes every key; a refused write fails the seeding, which start-up logs and a read repeats. */
    @Override
    public void seed() {
        template.opsForValue().multiSet(codec.encodeAll(Palette.all(), keys::key));
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
