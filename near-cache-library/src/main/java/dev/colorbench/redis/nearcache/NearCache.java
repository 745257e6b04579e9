package dev.colorbench.redis.nearcache;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;

/**
 * Redis string values by key, answered from a local copy that Redis keeps honest: every write to a
 * tracked key, by anyone, reaches the copy as an invalidation on a tracking connection
 * ({@link NearCacheTracking}), and the copy is dropped whole when that connection drops or goes silent.
 * Made by {@link NearCacheTracking#newCache}; the values are what the application's {@link ValueDecoder}
 * makes of the bytes Redis holds.
 *
 * <p>What one read costs in Redis:
 * <ul>
 * <li><b>warm</b> (every key asked for is in the copy): <b>no command, no round trip</b>, for
 * {@link #getIfPresent}, {@link #getAll} and a kept {@link Derived} value alike. Nothing needs asking:
 * Redis pushes an invalidation for every write under the tracked prefixes, so a value in the copy is
 * the one Redis holds, within the time the push takes to arrive;</li>
 * <li><b>cold</b> (a new copy, or keys invalidated since they were read): <b>1 MGET of just the missing
 * keys, 1 round trip</b>, on the application's own Redis connection. What Redis answers readable goes
 * into the copy, unless that key was invalidated while the MGET was under way. On a Redis Cluster,
 * Spring Data Redis splits the MGET into one per slot, sent to the masters together;</li>
 * <li><b>while tracking is not active</b> (starting, or a tracking connection lost and not yet back):
 * 1 MGET of every key asked for, nothing kept; a failure of Redis is thrown as Spring's
 * {@code DataAccessException}.</li>
 * </ul>
 * Concurrent reads that miss the same keys each send their own MGET; nothing is coalesced. Missing
 * and unreadable values are never kept: the caller sees them in {@link Values}, and may write them
 * back, which invalidates them like any write.
 *
 * @param <V> the values it serves, decoded once per read from Redis
 */
public final class NearCache<V> {

    private final ValueDecoder<V> decoder;

    private final RedisTemplate<byte[], byte[]> template;

    private final long maximumSize;

    /** Null while tracking is not active: then every read goes to Redis. */
    private volatile LocalCopy<V> copy;

    NearCache(RedisConnectionFactory connectionFactory, ValueDecoder<V> decoder, long maximumSize) {
        this.decoder = decoder;
        this.maximumSize = maximumSize;
        this.template = new RedisTemplate<>();
        template.setConnectionFactory(connectionFactory);
        template.afterPropertiesSet();
    }

    /** The copy's value of {@code key}, or null when it holds none: never a command. */
    public V getIfPresent(String key) {
        LocalCopy<V> current = copy;
        return (current == null) ? null : current.get(key);
    }

    /** Each key's value, in the order asked: from the copy where it holds it, the rest with one MGET. */
    public Values<V> getAll(List<String> keys) {
        return read(copy, keys);
    }

    /**
     * A value computed by {@code combine} from the values of {@code keys}, kept until any tracked key
     * is invalidated: {@code combine} runs on the first {@link Derived#get()} of each copy and after
     * each invalidation, not on a warm one.
     */
    public <R> Derived<R> derive(List<String> keys, Function<Values<V>, R> combine) {
        List<String> fixed = List.copyOf(keys);
        AtomicReference<Kept<R>> kept = new AtomicReference<>();
        return new Derived<>(() -> derived(fixed, combine, kept));
    }

    /** Whether the copy answers: tracking is active. */
    public boolean isActive() {
        return copy != null;
    }

    /** The values the copy holds now, 0 while tracking is not active. */
    public long size() {
        LocalCopy<V> current = copy;
        return (current == null) ? 0 : current.size();
    }

    /** A derived value and the copy, and its count of invalidations, it was computed at. */
    private record Kept<R>(LocalCopy<?> copy, long changes, R value) {
    }

    private <R> R derived(List<String> keys, Function<Values<V>, R> combine, AtomicReference<Kept<R>> kept) {
        LocalCopy<V> current = copy;
        if (current == null) {
            return combine.apply(read(null, keys));
        }
        Kept<R> last = kept.get();
        if (last != null && last.copy() == current && last.changes() == current.changes()) {
            return last.value();
        }
        long changes = current.changes(); // before any key is read
        Values<V> values = read(current, keys);
        R value = combine.apply(values);
        if (values.complete() && current.isLive() && current.changes() == changes) {
            kept.set(new Kept<>(current, changes, value));
        }
        return value;
    }

    private Values<V> read(LocalCopy<V> current, List<String> keys) {
        Object[] values = new Object[keys.size()];
        Set<String> missing = null;
        for (int i = 0; i < values.length; i++) {
            values[i] = (current == null) ? null : current.get(keys.get(i));
            if (values[i] == null) {
                if (missing == null) {
                    missing = new LinkedHashSet<>();
                }
                missing.add(keys.get(i));
            }
        }
        if (missing == null) {
            return new Values<>(list(values), List.of(), List.of());
        }
        Map<String, V> fetched = new HashMap<>();
        List<String> absent = new ArrayList<>();
        List<String> unreadable = new ArrayList<>();
        fetch(current, new ArrayList<>(missing), fetched, absent, unreadable);
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                values[i] = fetched.get(keys.get(i));
            }
        }
        return new Values<>(list(values), absent, unreadable);
    }

    /**
     * One MGET of {@code keys} (each once), decoded into {@code fetched}; what is readable is put into
     * {@code current} (if any) against each key's generation as it was before the MGET was sent.
     */
    private void fetch(LocalCopy<V> current, List<String> keys, Map<String, V> fetched, List<String> absent, List<String> unreadable) {
        long[] generations = new long[keys.size()];
        byte[][] raw = new byte[keys.size()][];
        for (int i = 0; i < raw.length; i++) {
            generations[i] = (current == null) ? 0 : current.generation(keys.get(i));
            raw[i] = keys.get(i).getBytes(StandardCharsets.UTF_8);
        }
        List<byte[]> stored = template.execute((RedisCallback<List<byte[]>>) connection -> connection.stringCommands().mGet(raw));
        if (stored == null || stored.size() != keys.size()) {
            throw new IllegalStateException("MGET of " + keys.size() + " keys answered " + (stored == null ? "nothing" : stored.size() + " values"));
        }
        for (int i = 0; i < raw.length; i++) {
            String key = keys.get(i);
            byte[] bytes = stored.get(i);
            V value = (bytes == null) ? null : decoder.decode(key, bytes);
            if (value != null) {
                fetched.put(key, value);
                if (current != null) {
                    current.put(key, generations[i], value);
                }
            }
            else if (bytes == null) {
                absent.add(key);
            }
            else {
                unreadable.add(key);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private List<V> list(Object[] values) {
        return (List<V>) Arrays.asList(values);
    }

    /** A new session began: Redis tracks for every connection; a new, empty copy answers. Under the tracking's lock. */
    void begin() {
        copy = new LocalCopy<>(maximumSize);
    }

    /** Tracking was lost: the copy goes now, and readers still holding it can neither read from it nor fill it. Under the tracking's lock. */
    void end() {
        LocalCopy<V> dropped = copy;
        copy = null;
        if (dropped != null) {
            dropped.discard();
        }
    }

    /** On Lettuce's event loop: quick, never blocking. */
    void invalidate(String key) {
        LocalCopy<V> current = copy;
        if (current != null) {
            current.invalidate(key);
        }
    }

    /** On Lettuce's event loop. */
    void invalidateAll() {
        LocalCopy<V> current = copy;
        if (current != null) {
            current.invalidateAll();
        }
    }

    /** The copy answering now, or null: for the tests. */
    LocalCopy<V> copy() {
        return copy;
    }
}
