package dev.colorbench.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Redis key scheme, one namespace per storage layout, as in the source post: every key
 * the project writes starts with {@code colors::}.
 */
public final class ColorKeys {

    /** Spring Cache name: the cache writes {@code colors::v1::<name>} strings. */
    public static final String CACHE_NAME = "colors::v1";

    /** Spring Data keyspace: hashes {@code colors::v2:<name>} plus the id set {@code colors::v2}. */
    public static final String HASH_KEYSPACE = "colors::v2";

    private static final String JSON_PREFIX = "colors::v3::";

    private static final List<String> ALL_JSON_KEYS = jsonKeys(Palette.names());

    private static final Map<String, Color> PALETTE_BY_JSON_KEY;

    static {
        Map<String, Color> byKey = new LinkedHashMap<>();
        Palette.all().forEach(color -> byKey.put(jsonKey(color.name()), color));
        PALETTE_BY_JSON_KEY = Collections.unmodifiableMap(byKey);
    }

    private ColorKeys() {
    }

    /** JSON string key shared by the MGET-style modules: {@code colors::v3::<name>}. */
    public static String jsonKey(String name) {
        return JSON_PREFIX + name;
    }

    public static List<String> jsonKeys(List<String> names) {
        return names.stream().map(ColorKeys::jsonKey).toList();
    }

    /** The JSON keys of the whole palette, computed once. */
    public static List<String> allJsonKeys() {
        return ALL_JSON_KEYS;
    }

    /** Every color under its JSON key, in palette order: what one MSET seeds. */
    public static Map<String, Color> paletteByJsonKey() {
        return PALETTE_BY_JSON_KEY;
    }
}
