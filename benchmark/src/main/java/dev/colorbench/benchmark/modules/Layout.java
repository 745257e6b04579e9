package dev.colorbench.benchmark.modules;

import java.util.Arrays;
import java.util.Locale;

/**
 * Where a module keeps the palette it reads, so that another client can change a color in the keys (or rows) that
 * module reads, and read back what is there: what the {@code writes} scenario does to every row.
 */
public enum Layout {

    /** Nothing stored: the palette is in the module (the in-memory ceiling). */
    NONE,
    /** {@code colors::v3::<name>}, each color's JSON as a string (the MGET modules, the near caches). */
    JSON_STRINGS,
    /** {@code colors::v1::<name>}, each color's JSON as Spring Cache keeps it (the {@code @Cacheable} rows per color). */
    CACHE_STRINGS,
    /** {@code colors::v2:<name>}, a hash per color as Spring Data's {@code @RedisHash} maps it, and the id set. */
    REPOSITORY_HASHES,
    /** {@code colors::v4::palette}, the whole palette's JSON array as one cached value. */
    PALETTE_STRING,
    /** {@code colors::v5}, one hash, a field per color holding its JSON. */
    PALETTE_HASH,
    /** {@code colorbench.colors}, a row per color in PostgreSQL. */
    TABLE;

    /** {@code json-strings}, {@code palette-string}, ... as the poms spell them. */
    static Layout of(String name) {
        return Arrays.stream(values())
                .filter(layout -> layout.toString().equals(name.toLowerCase(Locale.ROOT)))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Unknown colorbench.layout '" + name + "'"));
    }

    @Override
    public String toString() {
        return name().replace('_', '-').toLowerCase(Locale.ROOT);
    }
}
