package dev.colorbench.core.redis;

/**
 * The Redis key scheme, one namespace per storage layout, as in the source post: every key
 * the project writes starts with {@code colors::}.
 */
public final class ColorKeys {

    /** Spring Cache name: the cache writes {@code colors::v1::<name>} strings. */
    public static final String CACHE_NAME = "colors::v1";

    /** Spring Data keyspace: hashes {@code colors::v2:<name>} plus the id set {@code colors::v2}. */
    public static final String HASH_KEYSPACE = "colors::v2";

    /**
     * Spring Cache name of the whole palette cached as one value (cacheable-list): the cache writes
     * one string, {@code colors::v4::palette}, the palette's JSON array.
     */
    public static final String PALETTE_CACHE_NAME = "colors::v4";

    /** The one key the palette is cached under in {@link #PALETTE_CACHE_NAME}. */
    public static final String PALETTE_CACHE_KEY = "palette";

    /**
     * The whole palette in one Redis hash (hash-hmget): field {@code <name>}, value the same JSON
     * as {@code colors::v3::<name>} (the {@link ColorCodec}'s), so that the string and hash
     * layouts differ in structure only, not in encoding.
     */
    public static final String PALETTE_HASH = "colors::v5";

    private static final String CACHE_PREFIX = CACHE_NAME + "::";

    private static final String HASH_PREFIX = HASH_KEYSPACE + ":";

    private static final String JSON_PREFIX = "colors::v3::";

    private ColorKeys() {
    }

    /** Where Spring Cache keeps one color: {@code colors::v1::<name>} (its default key prefix). */
    public static String cacheKey(String name) {
        return CACHE_PREFIX + name;
    }

    /** Where Spring Cache keeps the whole palette as one value: {@code colors::v4::palette}. */
    public static String paletteCacheKey() {
        return PALETTE_CACHE_NAME + "::" + PALETTE_CACHE_KEY;
    }

    /** Where Spring Data keeps one color's hash: {@code colors::v2:<name>}. */
    public static String hashKey(String name) {
        return HASH_PREFIX + name;
    }

    /** JSON string key shared by the MGET-style modules: {@code colors::v3::<name>} ({@link JsonKeys} for lists and layouts). */
    public static String jsonKey(String name) {
        return JSON_PREFIX + name;
    }
}
