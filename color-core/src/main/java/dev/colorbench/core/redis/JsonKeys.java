package dev.colorbench.core.redis;

import java.util.List;

import dev.colorbench.core.palette.Palette;

/**
 * Where the modules that read each color's JSON string with one MGET (template-mget, mget-raw) keep those
 * strings: {@code colors::v3::<name>} (the plain layout, every module's default), or, with
 * {@code colorbench.redis.hash-tag=true}, {@code colors::{v3}::<name>}.
 *
 * <p>The difference matters only on a Redis Cluster. There a key's slot is the hash of the whole key, so
 * the 148 plain keys fall into 148 slots spread over every master, and one MGET of them cannot be sent as
 * one command: the client splits it, one MGET per slot (Lettuce, under Spring Data Redis 4: 148 MGETs of one
 * key each, sent to the masters at once). The braces are a hash tag: only {@code v3} is hashed, so every
 * color's key is in one slot, one MGET reads them all, as on one server, but one master holds and serves
 * all of them while the others serve none of this module's reads: a cluster that spreads nothing. Both are
 * measured by the modules' cluster tests. On one server the two layouts cost the same.
 *
 * <p>The two layouts are different keys: modules using one do not see the other's data, and both can live
 * side by side in one Redis.
 */
public final class JsonKeys {

    /** Set to {@code true} to use the hash-tagged layout. */
    public static final String HASH_TAG_PROPERTY = "colorbench.redis.hash-tag";

    private static final JsonKeys PLAIN = new JsonKeys(ColorKeys.jsonKey(""));

    private static final JsonKeys HASH_TAGGED = new JsonKeys("colors::{v3}::");

    private final String prefix;

    private final List<String> all;

    private JsonKeys(String prefix) {
        this.prefix = prefix;
        this.all = forNames(Palette.names());
    }

    /** {@code colors::v3::<name>}: the keys spread over a cluster's slots. */
    public static JsonKeys plain() {
        return PLAIN;
    }

    /** {@code colors::{v3}::<name>}: every key in the slot of {@code v3}. */
    public static JsonKeys hashTagged() {
        return HASH_TAGGED;
    }

    public static JsonKeys of(boolean hashTag) {
        return hashTag ? HASH_TAGGED : PLAIN;
    }

    /** What every key starts with. */
    public String prefix() {
        return prefix;
    }

    public String key(String name) {
        return prefix + name;
    }

    public List<String> forNames(List<String> names) {
        return names.stream().map(this::key).toList();
    }

    /** The keys of the whole palette, computed once. */
    public List<String> all() {
        return all;
    }

    @Override
    public String toString() {
        return prefix + "<name>";
    }
}
