package dev.colorbench.core.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.Palette;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one way a module turns a stored color into a {@link Color} and back: every module that
 * keeps colors as JSON decodes and encodes through here, with the application's one
 * {@link JsonMapper}, so the modules write the same bytes and agree on what they can read.
 *
 * <p>A stored value is <em>readable</em> for the color {@code name} when it decodes to a
 * {@code Color} whose name is {@code name}, whose hex is {@code #} and six lower-case hex
 * digits, whose red, green and blue are the three bytes of that hex, and whose padding is the
 * one the palette gives that name (none, unless {@code colorbench.palette.value-bytes} is set: a
 * value padded for another size is left from another run). Anything else (not
 * JSON, another shape, another color's name, inconsistent channels) is unreadable, and a module
 * treats it as a miss: it answers from the {@link Palette} and writes the key again. A readable
 * value that differs from the palette (another writer changed a color consistently) is served
 * as it is: Redis, not the palette, is what the modules read.
 *
 * <p>Decoding goes through the application's mapper, so its settings apply (Spring Boot's
 * ignores unknown properties and coerces {@code "255"} to {@code 255}); what the checks
 * above guarantee is that whatever is served is a consistent color under its own key.
 */
public final class ColorCodec {

    private static final boolean PADDED = Palette.valueBytes().isPresent();

    private final JsonMapper mapper;

    public ColorCodec(JsonMapper mapper) {
        this.mapper = mapper;
    }

    /** The color stored for {@code name}, or empty when the value is unreadable; {@code json} is never null. */
    public Optional<Color> decode(String name, byte[] json) {
        return Optional.ofNullable(readable(name, json));
    }

    /** The color stored for {@code name}, or empty when the value is unreadable; {@code json} is never null. */
    public Optional<Color> decode(String name, String json) {
        return Optional.ofNullable(readable(name, json));
    }

    /** The canonical JSON of a color: what every module stores and {@code GET /colors} serves. */
    public byte[] encode(Color color) {
        return mapper.writeValueAsBytes(color);
    }

    /** The canonical JSON of each color under the key {@code keyOf} gives its name, in order: what one MSET writes. */
    public Map<String, byte[]> encodeAll(List<Color> colors, Function<String, String> keyOf) {
        Map<String, byte[]> encoded = new LinkedHashMap<>();
        colors.forEach(color -> encoded.put(keyOf.apply(color.name()), encode(color)));
        return encoded;
    }

    /**
     * Decodes what one multi-key read found: {@code values.get(i)} is what Redis held for
     * {@code names.get(i)}, as {@code byte[]} or {@code String}, or null where the key was missing.
     * Missing and unreadable colors are answered from the palette; the result says which they were.
     */
    public StoredColors decodeAll(List<String> names, List<?> values) {
        if (values.size() != names.size()) {
            throw new IllegalArgumentException(values.size() + " values for " + names.size() + " names");
        }
        List<Color> colors = new ArrayList<>(names.size());
        Set<String> missing = null;
        Set<String> unreadable = null;
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            Object value = values.get(i);
            Color color = (value == null) ? null : readable(name, value);
            if (color == null) {
                if (value == null) {
                    missing = add(missing, name);
                }
                else {
                    unreadable = add(unreadable, name);
                }
                color = Palette.find(name).orElseThrow();
            }
            colors.add(color);
        }
        return new StoredColors(colors, listOf(missing), listOf(unreadable));
    }

    /**
     * Whether {@code color}, found where {@code name} is kept, is a consistent color of that name:
     * for modules whose values are mapped by Spring (a cache, a repository) rather than by this codec.
     */
    public static boolean isReadable(String name, Color color) {
        if (name == null || color == null || !name.equals(color.name()) || !isLowerCaseHex(color.hex())) {
            return false;
        }
        int rgb = Integer.parseInt(color.hex(), 1, 7, 16);
        return color.red() == ((rgb >> 16) & 0xFF) && color.green() == ((rgb >> 8) & 0xFF) && color.blue() == (rgb & 0xFF)
                && hasThePalettesPadding(name, color.padding());
    }

    /** Whether {@code padding} is what the palette pads {@code name} with: none, unless the palette is padded. */
    public static boolean hasThePalettesPadding(String name, String padding) {
        if (!PADDED) {
            return padding == null;
        }
        return Objects.equals(padding, Palette.find(name).map(Color::padding).orElse(null));
    }

    /**
     * Whether {@code value}, found where the whole palette is cached as one value, can be served as
     * the palette: a list of exactly as many colors as the {@link Palette} has, the color at each
     * position {@link #isReadable readable} for the palette's name at that position. So the list is
     * complete, in canonical order, and every element is a consistent color of its own name; one
     * bad element makes the whole value unreadable, since a partial or reordered palette must never
     * be answered. As for single colors, a consistent color that differs from the palette is served.
     */
    public static boolean isReadablePalette(Object value) {
        List<String> names = Palette.names();
        if (!(value instanceof List<?> colors) || colors.size() != names.size()) {
            return false;
        }
        for (int i = 0; i < names.size(); i++) {
            if (!(colors.get(i) instanceof Color color && isReadable(names.get(i), color))) {
                return false;
            }
        }
        return true;
    }

    private Color readable(String name, Object json) {
        Color color;
        try {
            if (json instanceof byte[] bytes) {
                color = mapper.readValue(bytes, Color.class);
            }
            else if (json instanceof String text) {
                color = mapper.readValue(text, Color.class);
            }
            else {
                throw new IllegalArgumentException("A stored color is byte[] or String, not " + json.getClass().getName());
            }
        }
        catch (JacksonException ex) {
            return null;
        }
        return isReadable(name, color) ? color : null;
    }

    private static boolean isLowerCaseHex(String hex) {
        if (hex == null || hex.length() != 7 || hex.charAt(0) != '#') {
            return false;
        }
        for (int i = 1; i < 7; i++) {
            char c = hex.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }

    private static Set<String> add(Set<String> names, String name) {
        Set<String> set = (names == null) ? new LinkedHashSet<>() : names;
        set.add(name);
        return set;
    }

    private static List<String> listOf(Set<String> names) {
        return (names == null) ? List.of() : List.copyOf(names);
    }
}
