package dev.colorbench.redis.nearcache;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.StreamSupport;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.RemovalCause;

/**
 * The values a {@link NearCache} answers without Redis, for as long as one tracking session lasts,
 * in a Caffeine cache bounded in bytes. A new copy, empty, is made each time Redis confirms tracking on
 * a (re)connected connection (on a Redis Cluster: once every master's connection is confirmed;
 * {@link NearCacheTracking}), and each time Redis reports a flush; the copy it replaces is
 * {@link #discard() discarded}: it answers nothing more, and takes no more values.
 *
 * <p><b>The near-cache race, made impossible.</b> A reader takes a key's <em>generation</em> before
 * it reads Redis, and puts what Redis answered only if the generation is still the same; each
 * invalidation raises the generation before it removes the entry. So a value read before a write
 * and put after that write's invalidation was handled is refused instead of staying in the copy for
 * good. The check runs inside Caffeine's {@code compute}, under the lock the invalidation's removal
 * also takes, and once more after it, so that a put and an invalidation of the same key can
 * interleave in any order: either the put is refused or the invalidation removes it.
 *
 * <p>A generation is a counter of the key's stripe (one of {@link #STRIPES}, by the key's hash): it
 * only grows, and the copy needs no counter per key, whatever keys the application reads. Two keys of
 * one stripe share a counter: an invalidation of one refuses a put of the other under way, which costs
 * that key one more read, never a stale value.
 *
 * <p><b>A value derived from many keys</b> ({@link Derived}) is kept with a <em>stamp</em>: the sum of
 * a second counter of each of its keys' stripes, which an invalidation raises only once the key is
 * gone. The reader reads the stamp before it reads any key; if it still saw an old value, the stamp
 * it keeps is from before that invalidation finished, and the value is retired when the sum moves. An
 * invalidation of a key it was not derived from retires it only if the two keys share a stripe.
 *
 * <p><b>Expiry.</b> Every entry carries the instant it expires: the local time-to-live, a safety net
 * against anything that outlives its bound, or sooner the TTL Redis gave the key. A derived value
 * expires with the first of its keys.
 */
final class LocalCopy {

    /** Generation counters: a power of two, few enough to allocate per copy, many enough that keys rarely share one. */
    static final int STRIPES = 4096;

    /** What the copy holds per key, or per derived value: the value, its weight in bytes, when it expires, and a derived value's stamp. */
    record Entry(Object value, int weight, long expiresAtNanos, long stamp) {
    }

    /** What the copy counts for the meters; shared by every copy of one cache. */
    static final class Counters {

        final LongAdder refused = new LongAdder();

        final LongAdder evictions = new LongAdder();

        final LongAdder expirations = new LongAdder();
    }

    private final Cache<Object, Entry> values;

    /** Raised before a key's entry is removed: a put of an older read is refused from then on. */
    private final AtomicLongArray generations = new AtomicLongArray(STRIPES);

    /** Raised after a key's entry is removed: what a derived value's stamp sums. */
    private final AtomicLongArray settled = new AtomicLongArray(STRIPES);

    private final Counters counters;

    private volatile boolean live = true;

    LocalCopy(long maximumBytes, Counters counters) {
        this.counters = counters;
        this.values = Caffeine.newBuilder()
                .maximumWeight(maximumBytes)
                .weigher((Object key, Entry entry) -> entry.weight())
                .expireAfter(Expiry.writing((Object key, Entry entry) -> Duration.ofNanos(Math.max(0, entry.expiresAtNanos() - System.nanoTime()))))
                .evictionListener((Object key, Entry entry, RemovalCause cause) -> {
                    if (cause == RemovalCause.EXPIRED) {
                        counters.expirations.increment();
                    }
                    else if (cause == RemovalCause.SIZE) {
                        counters.evictions.increment();
                    }
                })
                // maintenance in the calling thread: no pool thread of its own, nothing left running
                .executor(Runnable::run)
                .build();
    }

    /** A new bound in bytes: entries are evicted now, on this thread, until the copy weighs no more. */
    void resize(long maximumBytes) {
        values.policy().eviction().ifPresent(eviction -> eviction.setMaximum(maximumBytes));
    }

    /** The value kept for {@code key}, or null: none, expired, or the copy discarded. */
    Object get(RedisKey key) {
        if (!live) {
            return null;
        }
        Entry entry = values.getIfPresent(key);
        return (entry == null) ? null : entry.value();
    }

    /** The entry kept for {@code key}, or null. */
    Entry entry(RedisKey key) {
        return live ? values.getIfPresent(key) : null;
    }

    /** To be read before Redis is, to {@link #put put} what it answers for {@code key}. */
    long generation(RedisKey key) {
        return generations.get(stripe(key));
    }

    /**
     * Keeps {@code value}, what Redis held for {@code key}, unless the key was invalidated since
     * {@code generation} was read or the copy was discarded.
     *
     * @return whether it was kept
     */
    boolean put(RedisKey key, long generation, Object value, int weight, long expiresAtNanos) {
        int stripe = stripe(key);
        Entry entry = new Entry(value, weight, expiresAtNanos, 0);
        values.asMap().compute(key, (k, current) -> unchanged(stripe, generation) ? entry : current);
        if (!unchanged(stripe, generation)) {
            values.asMap().remove(key, entry);
            counters.refused.increment();
            return false;
        }
        return true;
    }

    /** The stripes of {@code keys}, each once: what a derived value's {@link #stamp} sums. */
    static int[] stripes(Iterable<RedisKey> keys) {
        return StreamSupport.stream(keys.spliterator(), false).mapToInt(LocalCopy::stripe).distinct().toArray();
    }

    /** To be read before any key of a derived value is: it moves once an invalidation of one of {@code stripes} has finished. */
    long stamp(int[] stripes) {
        long sum = 0;
        for (int stripe : stripes) {
            sum += settled.get(stripe);
        }
        return sum;
    }

    /** The derived value kept under {@code id} at {@code stamp}, or null. */
    Object derived(Object id, long stamp) {
        if (!live) {
            return null;
        }
        Entry entry = values.getIfPresent(id);
        return (entry != null && entry.stamp() == stamp) ? entry.value() : null;
    }

    /** Keeps a derived value with the stamp read before its keys were, unless it has moved meanwhile. */
    void putDerived(Object id, int[] stripes, long stamp, Object value, int weight, long expiresAtNanos) {
        if (live && stamp(stripes) == stamp) {
            values.put(id, new Entry(value, weight, expiresAtNanos, stamp));
        }
    }

    /**
     * Redis says {@code key} changed.
     *
     * <p>The order is the point: the generation first (from then on no put of an older read is
     * taken), then the value goes, and only then the stripe's settled count moves, which retires the
     * derived values that count stamped.
     */
    void invalidate(RedisKey key) {
        int stripe = stripe(key);
        generations.incrementAndGet(stripe);
        values.invalidate(key);
        settled.incrementAndGet(stripe);
    }

    /** The copy is replaced: it answers nothing from now on, and refuses every later put, for readers still holding it. */
    void discard() {
        live = false;
    }

    boolean isLive() {
        return live;
    }

    /** The values held now, derived ones included. */
    long size() {
        values.cleanUp();
        return values.estimatedSize();
    }

    /** The weight of what is held now, in bytes as the copy counts them. */
    long bytes() {
        values.cleanUp();
        return values.policy().eviction().map(eviction -> eviction.weightedSize().orElse(0)).orElse(0L);
    }

    private boolean unchanged(int stripe, long generation) {
        return live && generations.get(stripe) == generation;
    }

    static int stripe(RedisKey key) {
        int hash = key.hashCode();
        return (hash ^ (hash >>> 16)) & (STRIPES - 1);
    }

    /** The cache, for the tests that hold its locks to force an interleaving. */
    Cache<Object, Entry> values() {
        return values;
    }
}
