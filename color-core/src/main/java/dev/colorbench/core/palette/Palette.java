package dev.colorbench.core.palette;

import java.util.ArrayList;
import java.util.IntSummaryStatistics;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The colors every module serves: the single source of truth every module seeds its store from,
 * and the order {@code GET /colors} answers in. By default the 148 named colors of CSS Color
 * Module Level 4, in alphabetical order. A JVM started with {@code -Dcolorbench.palette.size=N}
 * (or {@code COLORBENCH_PALETTE_SIZE=N}) serves another number, so that the benchmark can ask how
 * each pattern's cost grows with the number of keys: fewer are the first N named colors, more are
 * the 148 followed by generated ones ({@link #sized(int)}), with names the contract accepts and the
 * same JSON shape, stored under each module's own keys like the others.
 *
 * <p>A JVM started with {@code -Dcolorbench.palette.value-bytes=N} (or
 * {@code COLORBENCH_PALETTE_VALUE_BYTES=N}) gives every color a {@link Color#padding() padding} of
 * lower-case letters, its name repeated, so that each color's JSON ({@code ColorJson.of(color)}) is
 * exactly N bytes: the benchmark asks whether the patterns rank the same with larger values. Unset,
 * no color has a padding and the JSON is what it always was.
 */
public final class Palette {

    /** How many colors CSS names. */
    public static final int NAMED = 148;

    /** The number of colors, when not {@value #NAMED}. */
    public static final String SIZE_PROPERTY = "colorbench.palette.size";

    /** The bytes of each color's JSON, padded; unset, each color's own. */
    public static final String VALUE_BYTES_PROPERTY = "colorbench.palette.value-bytes";

    /** The smallest padded value: larger than any color's own JSON with an empty padding. */
    public static final int MIN_VALUE_BYTES = 128;

    /** The largest padded value. */
    public static final int MAX_VALUE_BYTES = 1_048_576;

    /** The most bytes the padded values of a whole palette may take together. */
    public static final int MAX_PALETTE_BYTES = 64 * 1024 * 1024;

    /** The most colors {@link #sized(int)} makes: the named ones, then one for each four letters after {@code xc}. */
    public static final int MAX_SIZE = NAMED + 26 * 26 * 26 * 26;

    /** What a padding adds to a color's JSON besides its letters: {@code ,"padding":""}. */
    private static final int PADDING_OVERHEAD = ",\"padding\":\"\"".length();

    private static final List<Color> CSS_COLORS = List.of(
            Color.of("aliceblue", 0xF0F8FF),
            Color.of("antiquewhite", 0xFAEBD7),
            Color.of("aqua", 0x00FFFF),
            Color.of("aquamarine", 0x7FFFD4),
            Color.of("azure", 0xF0FFFF),
            Color.of("beige", 0xF5F5DC),
            Color.of("bisque", 0xFFE4C4),
            Color.of("black", 0x000000),
            Color.of("blanchedalmond", 0xFFEBCD),
            Color.of("blue", 0x0000FF),
            Color.of("blueviolet", 0x8A2BE2),
            Color.of("brown", 0xA52A2A),
            Color.of("burlywood", 0xDEB887),
            Color.of("cadetblue", 0x5F9EA0),
            Color.of("chartreuse", 0x7FFF00),
            Color.of("chocolate", 0xD2691E),
            Color.of("coral", 0xFF7F50),
            Color.of("cornflowerblue", 0x6495ED),
            Color.of("cornsilk", 0xFFF8DC),
            Color.of("crimson", 0xDC143C),
            Color.of("cyan", 0x00FFFF),
            Color.of("darkblue", 0x00008B),
            Color.of("darkcyan", 0x008B8B),
            Color.of("darkgoldenrod", 0xB8860B),
            Color.of("darkgray", 0xA9A9A9),
            Color.of("darkgreen", 0x006400),
            Color.of("darkgrey", 0xA9A9A9),
            Color.of("darkkhaki", 0xBDB76B),
            Color.of("darkmagenta", 0x8B008B),
            Color.of("darkolivegreen", 0x556B2F),
            Color.of("darkorange", 0xFF8C00),
            Color.of("darkorchid", 0x9932CC),
            Color.of("darkred", 0x8B0000),
            Color.of("darksalmon", 0xE9967A),
            Color.of("darkseagreen", 0x8FBC8F),
            Color.of("darkslateblue", 0x483D8B),
            Color.of("darkslategray", 0x2F4F4F),
            Color.of("darkslategrey", 0x2F4F4F),
            Color.of("darkturquoise", 0x00CED1),
            Color.of("darkviolet", 0x9400D3),
            Color.of("deeppink", 0xFF1493),
            Color.of("deepskyblue", 0x00BFFF),
            Color.of("dimgray", 0x696969),
            Color.of("dimgrey", 0x696969),
            Color.of("dodgerblue", 0x1E90FF),
            Color.of("firebrick", 0xB22222),
            Color.of("floralwhite", 0xFFFAF0),
            Color.of("forestgreen", 0x228B22),
            Color.of("fuchsia", 0xFF00FF),
            Color.of("gainsboro", 0xDCDCDC),
            Color.of("ghostwhite", 0xF8F8FF),
            Color.of("gold", 0xFFD700),
            Color.of("goldenrod", 0xDAA520),
            Color.of("gray", 0x808080),
            Color.of("green", 0x008000),
            Color.of("greenyellow", 0xADFF2F),
            Color.of("grey", 0x808080),
            Color.of("honeydew", 0xF0FFF0),
            Color.of("hotpink", 0xFF69B4),
            Color.of("indianred", 0xCD5C5C),
            Color.of("indigo", 0x4B0082),
            Color.of("ivory", 0xFFFFF0),
            Color.of("khaki", 0xF0E68C),
            Color.of("lavender", 0xE6E6FA),
            Color.of("lavenderblush", 0xFFF0F5),
            Color.of("lawngreen", 0x7CFC00),
            Color.of("lemonchiffon", 0xFFFACD),
            Color.of("lightblue", 0xADD8E6),
            Color.of("lightcoral", 0xF08080),
            Color.of("lightcyan", 0xE0FFFF),
            Color.of("lightgoldenrodyellow", 0xFAFAD2),
            Color.of("lightgray", 0xD3D3D3),
            Color.of("lightgreen", 0x90EE90),
            Color.of("lightgrey", 0xD3D3D3),
            Color.of("lightpink", 0xFFB6C1),
            Color.of("lightsalmon", 0xFFA07A),
            Color.of("lightseagreen", 0x20B2AA),
            Color.of("lightskyblue", 0x87CEFA),
            Color.of("lightslategray", 0x778899),
            Color.of("lightslategrey", 0x778899),
            Color.of("lightsteelblue", 0xB0C4DE),
            Color.of("lightyellow", 0xFFFFE0),
            Color.of("lime", 0x00FF00),
            Color.of("limegreen", 0x32CD32),
            Color.of("linen", 0xFAF0E6),
            Color.of("magenta", 0xFF00FF),
            Color.of("maroon", 0x800000),
            Color.of("mediumaquamarine", 0x66CDAA),
            Color.of("mediumblue", 0x0000CD),
            Color.of("mediumorchid", 0xBA55D3),
            Color.of("mediumpurple", 0x9370DB),
            Color.of("mediumseagreen", 0x3CB371),
            Color.of("mediumslateblue", 0x7B68EE),
            Color.of("mediumspringgreen", 0x00FA9A),
            Color.of("mediumturquoise", 0x48D1CC),
            Color.of("mediumvioletred", 0xC71585),
            Color.of("midnightblue", 0x191970),
            Color.of("mintcream", 0xF5FFFA),
            Color.of("mistyrose", 0xFFE4E1),
            Color.of("moccasin", 0xFFE4B5),
            Color.of("navajowhite", 0xFFDEAD),
            Color.of("navy", 0x000080),
            Color.of("oldlace", 0xFDF5E6),
            Color.of("olive", 0x808000),
            Color.of("olivedrab", 0x6B8E23),
            Color.of("orange", 0xFFA500),
            Color.of("orangered", 0xFF4500),
            Color.of("orchid", 0xDA70D6),
            Color.of("palegoldenrod", 0xEEE8AA),
            Color.of("palegreen", 0x98FB98),
            Color.of("paleturquoise", 0xAFEEEE),
            Color.of("palevioletred", 0xDB7093),
            Color.of("papayawhip", 0xFFEFD5),
            Color.of("peachpuff", 0xFFDAB9),
            Color.of("peru", 0xCD853F),
            Color.of("pink", 0xFFC0CB),
            Color.of("plum", 0xDDA0DD),
            Color.of("powderblue", 0xB0E0E6),
            Color.of("purple", 0x800080),
            Color.of("rebeccapurple", 0x663399),
            Color.of("red", 0xFF0000),
            Color.of("rosybrown", 0xBC8F8F),
            Color.of("royalblue", 0x4169E1),
            Color.of("saddlebrown", 0x8B4513),
            Color.of("salmon", 0xFA8072),
            Color.of("sandybrown", 0xF4A460),
            Color.of("seagreen", 0x2E8B57),
            Color.of("seashell", 0xFFF5EE),
            Color.of("sienna", 0xA0522D),
            Color.of("silver", 0xC0C0C0),
            Color.of("skyblue", 0x87CEEB),
            Color.of("slateblue", 0x6A5ACD),
            Color.of("slategray", 0x708090),
            Color.of("slategrey", 0x708090),
            Color.of("snow", 0xFFFAFA),
            Color.of("springgreen", 0x00FF7F),
            Color.of("steelblue", 0x4682B4),
            Color.of("tan", 0xD2B48C),
            Color.of("teal", 0x008080),
            Color.of("thistle", 0xD8BFD8),
            Color.of("tomato", 0xFF6347),
            Color.of("turquoise", 0x40E0D0),
            Color.of("violet", 0xEE82EE),
            Color.of("wheat", 0xF5DEB3),
            Color.of("white", 0xFFFFFF),
            Color.of("whitesmoke", 0xF5F5F5),
            Color.of("yellow", 0xFFFF00),
            Color.of("yellowgreen", 0x9ACD32));

    private static final Integer VALUE_BYTES = configuredValueBytes();

    private static final List<Color> COLORS = of(configuredSize(), VALUE_BYTES);

    private static final Map<String, Color> BY_NAME;

    private static final List<String> NAMES;

    static {
        Map<String, Color> byName = new LinkedHashMap<>();
        COLORS.forEach(color -> byName.put(color.name(), color));
        BY_NAME = Collections.unmodifiableMap(byName);
        NAMES = List.copyOf(byName.keySet());
    }

    private Palette() {
    }

    /**
     * The first {@code size} named colors, or, beyond 148, all of them followed by generated colors:
     * {@code xc} and four letters ({@code xcaaaa}, {@code xcaaab}, ...; no CSS name starts with {@code x}),
     * each with a color spread over the cube by a multiplicative hash of its index. No padding.
     */
    public static List<Color> sized(int size) {
        return of(size, null);
    }

    /**
     * {@link #sized(int) The palette of {@code size} colors}, each padded so that its JSON is exactly
     * {@code valueBytes} bytes; null: not padded.
     *
     * @throws IllegalArgumentException if {@link #check} refuses the two
     */
    public static List<Color> of(int size, Integer valueBytes) {
        check(size, valueBytes);
        List<Color> colors;
        if (size <= NAMED) {
            colors = CSS_COLORS.subList(0, size);
        }
        else {
            colors = new ArrayList<>(CSS_COLORS);
            for (int index = 0; index < size - NAMED; index++) {
                colors.add(Color.of("xc" + letters(index, 4), (int) ((index * 2654435761L) & 0xFFFFFF)));
            }
        }
        if (valueBytes == null) {
            return List.copyOf(colors);
        }
        List<Color> padded = new ArrayList<>(colors.size());
        for (Color color : colors) {
            padded.add(color.withPadding(padding(color.name(), valueBytes - unpaddedLength(color) - PADDING_OVERHEAD)));
        }
        return List.copyOf(padded);
    }

    /**
     * Refuses a palette the properties cannot ask for, with a message that names the allowed range:
     * {@code size} outside 1 to {@link #MAX_SIZE}, {@code valueBytes} (when not null) outside
     * {@link #MIN_VALUE_BYTES} to {@link #MAX_VALUE_BYTES}, or the two together more than
     * {@link #MAX_PALETTE_BYTES}.
     *
     * @throws IllegalArgumentException if the palette cannot be made
     */
    public static void check(int size, Integer valueBytes) {
        if (size < 1 || size > MAX_SIZE) {
            throw new IllegalArgumentException("%s=%,d is out of range: a palette has at least one color and at most %,d (1 to %,d)"
                    .formatted(SIZE_PROPERTY, size, MAX_SIZE, MAX_SIZE));
        }
        if (valueBytes == null) {
            return;
        }
        if (valueBytes < MIN_VALUE_BYTES || valueBytes > MAX_VALUE_BYTES) {
            IntSummaryStatistics own = ownLengths(size);
            throw new IllegalArgumentException("%s=%,d is out of range: a stored value is %,d to %,d bytes (unset: the colors' own %,d to %,d bytes)"
                    .formatted(VALUE_BYTES_PROPERTY, valueBytes, MIN_VALUE_BYTES, MAX_VALUE_BYTES, own.getMin(), own.getMax()));
        }
        if ((long) size * valueBytes > MAX_PALETTE_BYTES) {
            throw new IllegalArgumentException(("%s=%,d is out of range for %s=%,d: the palette's values are at most %,d bytes together, "
                    + "so %,d colors are at most %,d bytes each (%,d to %,d)").formatted(VALUE_BYTES_PROPERTY, valueBytes, SIZE_PROPERTY, size,
                    MAX_PALETTE_BYTES, size, MAX_PALETTE_BYTES / size, MIN_VALUE_BYTES, Math.max(MIN_VALUE_BYTES, MAX_PALETTE_BYTES / size)));
        }
    }

    /** The bytes of each unpadded color's JSON in a palette of {@code size}: what a value is when the property is unset. */
    private static IntSummaryStatistics ownLengths(int size) {
        return sized(size).stream().mapToInt(Palette::unpaddedLength).summaryStatistics();
    }

    /**
     * The length of {@code ColorJson.of(color)} for a color without padding, counted here rather than written, since the
     * palette is made before any mapper: {@code {"name":"<name>","hex":"<hex>","red":r,"green":g,"blue":b}}, all ASCII.
     */
    static int unpaddedLength(Color color) {
        return "{\"name\":\"\",\"hex\":\"\",\"red\":,\"green\":,\"blue\":}".length() + color.name().length() + color.hex().length()
                + digits(color.red()) + digits(color.green()) + digits(color.blue());
    }

    private static int digits(int channel) {
        return channel >= 100 ? 3 : channel >= 10 ? 2 : 1;
    }

    /** {@code length} letters: {@code name} repeated, cut where the length ends. */
    private static String padding(String name, int length) {
        StringBuilder padding = new StringBuilder(length);
        while (padding.length() + name.length() <= length) {
            padding.append(name);
        }
        padding.append(name, 0, length - padding.length());
        return padding.toString();
    }

    private static String letters(int index, int width) {
        char[] letters = new char[width];
        for (int i = width - 1; i >= 0; i--) {
            letters[i] = (char) ('a' + index % 26);
            index /= 26;
        }
        if (index > 0) {
            throw new IllegalArgumentException("Too many generated colors");
        }
        return new String(letters);
    }

    private static int configuredSize() {
        String configured = System.getProperty(SIZE_PROPERTY, System.getenv("COLORBENCH_PALETTE_SIZE"));
        return configured == null || configured.isBlank() ? NAMED : Integer.parseInt(configured.trim());
    }

    private static Integer configuredValueBytes() {
        String configured = System.getProperty(VALUE_BYTES_PROPERTY, System.getenv("COLORBENCH_PALETTE_VALUE_BYTES"));
        return configured == null || configured.isBlank() ? null : Integer.valueOf(configured.trim());
    }

    /** The bytes each color's JSON is padded to, or empty when the palette is not padded. */
    public static Optional<Integer> valueBytes() {
        return Optional.ofNullable(VALUE_BYTES);
    }

    /** Every color, in canonical order. */
    public static List<Color> all() {
        return COLORS;
    }

    /** Every color name, in canonical order. */
    public static List<String> names() {
        return NAMES;
    }

    /** The color with this lower-case name, if there is one. */
    public static Optional<Color> find(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }

    /** The colors with these known lower-case names, in the order given. */
    public static List<Color> colors(List<String> names) {
        return names.stream().map(BY_NAME::get).toList();
    }

    public static boolean contains(String name) {
        return BY_NAME.containsKey(name);
    }
}
