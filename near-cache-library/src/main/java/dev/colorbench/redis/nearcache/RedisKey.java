package dev.colorbench.redis.nearcache;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * A key as Redis sees it: its bytes. The copy is keyed by these, not by Java strings, because Redis's
 * invalidations name bytes: two strings that encode to the same bytes (an unpaired surrogate becomes
 * {@code ?}) are one key in Redis, and must be one key in the copy, or an invalidation of one would
 * leave the other stale.
 */
final class RedisKey {

    private final byte[] bytes;

    private final int hash;

    private RedisKey(byte[] bytes) {
        this.bytes = bytes;
        this.hash = Arrays.hashCode(bytes);
    }

    static RedisKey of(String key) {
        return new RedisKey(key.getBytes(StandardCharsets.UTF_8));
    }

    /** A copy of what remains in {@code pushed}: Lettuce may reuse its buffers. */
    static RedisKey of(ByteBuffer pushed) {
        byte[] bytes = new byte[pushed.remaining()];
        pushed.duplicate().get(bytes);
        return new RedisKey(bytes);
    }

    byte[] bytes() {
        return bytes;
    }

    int length() {
        return bytes.length;
    }

    /** Whether the key starts with one of {@code prefixes}, byte for byte. */
    boolean startsWithAny(List<byte[]> prefixes) {
        for (byte[] prefix : prefixes) {
            if (startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    boolean startsWith(byte[] prefix) {
        return bytes.length >= prefix.length && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RedisKey key && key.hash == hash && Arrays.equals(key.bytes, bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
