package dev.colorbench.redis.nearcache;

/**
 * Turns what Redis holds under a key into the value a {@link NearCache} serves and keeps. It runs
 * only on a miss, once per key read, so the warm path does no decoding at all: decode into the form
 * the application answers with (for a web API, the bytes of the response).
 *
 * @param <V> the values the cache serves
 */
@FunctionalInterface
public interface ValueDecoder<V> {

    /**
     * The value to serve for {@code key}, or null when {@code stored} is not readable: then the key
     * is listed in {@link Values#unreadable()} and nothing is kept for it.
     *
     * @param key the key as the application asked for it
     * @param stored the bytes Redis holds under it, never null
     */
    V decode(String key, byte[] stored);
}
