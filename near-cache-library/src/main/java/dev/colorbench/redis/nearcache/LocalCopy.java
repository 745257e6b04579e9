package dev.colorbench.redis.nearcache;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * The values a {@link NearCache} answers without Redis, for as long as one tracking session lasts,
 * by key in a Caffeine cache. A new copy, empty, is made each time Redis confirms tracking on a
 * (re)connected connection (on a Redis Cluster: once every master's connection is confirmed;
 * {@link NearCacheTracking}); when a tracking connection is lost the copy is {@link #discard()
 * discarded} at once and never filled again, since the invalidations it would have needed may be
 * gone with it.
 *
 * <p><b>The near-cache race, made impossible.</b> A reader takes a key's <em>generation</em> before
 * it reads Redis, and puts what Redis answered only if the generation is still the same; each
 * invalidation raises the generation before it removes the entry. So a value read before a write
 * and put after that write's invalidation was handled is refused instead of staying in the copy for
 * good. The check runs inside Caffeine's {@code compute}, under the lock the invalidation's removal
 * also takes, and once more after it, so that a put and an invalidation of the same key can
 * interleave in any order: either the put is refused or the invalidation removes it.
 *
 * <p>A generation is the sum of the count of flushes and a counter of the key's stripe (one of
 * {@link #STRIPES}, by the key's hash): both only grow, so the sum moves whenever either does, and
 * the copy needs no counter per key, whatever keys the application reads. Two keys of one stripe
 * share a counter: an invalidation of one refuses a put of the other under way, which costs that
 * key one more read, never a stale value.
 *
 * <p>{@link #changes()} counts every invalidation the copy has finished handling: a value derived from
 * many keys ({@link Derived}) is kept with the count read before its keys were, and served only while
 * the count has not moved. An invalidation raises the count only once the key is gone, so no reader
 * can see the new count and still the old value.
 */
final class LocalCopy<V> {

    /** Generation counters: a power of two, 32 KB, few enough to flush at once, many enough that keys rarely share one. */
    static final int STRIPES = 4096;

    private final Cache<String, V> values;

    private final AtomicLongArray generations = new AtomicLongArray(STRIPES);

    private final AtomicLong flushes = new AtomicLong();

    /** Every invalidation this copy has finished handling, of one key or of all; raised only after the values are removed. */
    private final AtomicLong changes = new AtomicLong();

    private volatile boolean live = true;

    LocalCopy(long maximumSize) {
        this(newValues(maximumSize));
    }

    /** A copy over {@code values}, a cache made by {@link #newValues}: the tests hold its locks to force an interleaving. */
    LocalCopy(Cache<String, V> values) {
        this.values = values;
    }

    static <V> Cache<String, V> newValues(long maximumSize) {
        return Caffeine.newBuilder()
                .maximumSize(maximumSize)
                // maintenance in the calling thread: no pool thread of its own, nothing left running
                .executor(Runnable::run)
                .build();
    }

    /** The value of {@code key}, or null when the copy does not hold it. */
    V get(String key) {
        return values.getIfPresent(key);
    }

    /** To be read before the copy's values are, to keep a value derived from them ({@link Derived}). */
    long changes() {
        return changes.get();
    }

    /** To be read before Redis is, to {@link #put put} what it answers for {@code key}. */
    long generation(String key) {
        return flushes.get() + generations.get(stripe(key));
    }

    /**
     * Keeps {@code value}, what Redis held for {@code key}, unless the key was invalidated since
     * {@code generation} was read or the copy was discarded.
     */
    void put(String key, long generation, V value) {
        int stripe = stripe(key);
        values.asMap().compute(key, (k, current) -> unchanged(stripe, generation) ? value : current);
        if (!unchanged(stripe, generation)) {
            values.asMap().remove(key, value);
        }
    }

    /**
     * Redis says {@code key} changed.
     *
     * <p>The order is the point: the generation first (from then on no put of an older read is
     * taken), then the value goes, and only then {@link #changes} moves. A reader deriving a value
     * reads {@code changes} before it reads any key: if it still saw the old value, it saw a count
     * from before this invalidation finished, and what it keeps with that count is retired when the
     * count moves. Raising the count first would let a reader see the new count and then the old
     * value, not removed yet, and keep a derived value that nothing retires until another key changes.
     */
    void invalidate(String key) {
        generations.incrementAndGet(stripe(key));
        values.invalidate(key);
        changes.incrementAndGet();
    }

    /** Redis says everything may have changed (a flush): in the same order as {@link #invalidate}. */
    void invalidateAll() {
        flushes.incrementAndGet();
        values.invalidateAll();
        changes.incrementAndGet();
    }

    /** Tracking was lost: empties the copy and refuses every later put, for readers still holding it. */
    void discard() {
        live = false;
        invalidateAll();
    }

    boolean isLive() {
        return live;
    }

    /** The values held now. */
    long size() {
        values.cleanUp();
        return values.estimatedSize();
    }

    private boolean unchanged(int stripe, long generation) {
        return live && flushes.get() + generations.get(stripe) == generation;
    }

    static int stripe(String key) {
        int hash = key.hashCode();
        return (hash ^ (hash >>> 16)) & (STRIPES - 1);
    }
}
