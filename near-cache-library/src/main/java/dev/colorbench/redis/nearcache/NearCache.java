package dev.colorbench.redis.nearcache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Redis string values by key, answered from a local copy that Redis keeps honest: every write to a
 * key under the tracked prefixes, by anyone, reaches the copy as an invalidation on a tracking
 * connection ({@link NearCacheTracking}), and the copy is dropped whole when that connection drops.
 * Made by {@link NearCacheTracking#newCache}; the values are what the application's
 * {@link ValueDecoder} makes of the bytes Redis holds.
 *
 * <p>What one read costs in Redis:
 * <ul>
 * <li><b>warm</b> (every key asked for is in the copy): <b>no command, no round trip</b>, for
 * {@link #getIfPresent}, {@link #getAll} and a kept {@link Derived} value alike. Redis pushes an
 * invalidation for every write under the tracked prefixes, so a value in the copy is the one Redis
 * holds, within the time the push takes to arrive;</li>
 * <li><b>cold</b> (a new copy, or keys invalidated, expired or evicted since they were read):
 * <b>1 MGET of just the missing keys, and 1 PTTL of each</b> unless {@code read-ttl} is off, all in
 * <b>1 round trip</b>, on the application's own Redis connection. What Redis answers readable goes into
 * the copy, unless that key was invalidated while the read was under way. Concurrent reads that miss
 * the same key share one read of it. On a Redis Cluster, Lettuce splits the MGET into one per slot,
 * sent to the masters together;</li>
 * <li><b>a key outside the prefixes</b>: Redis reports no write to it, so it is never kept: each read of
 * it is part of the MGET;</li>
 * <li><b>while tracking is not active</b> (starting, a tracking connection lost and not yet back, or
 * turned off): 1 MGET of every key asked for, nothing kept. While a tracking connection is late with
 * its heartbeat, the copy is kept but not served: reads go to Redis as on a miss, and are shared.</li>
 * </ul>
 * A failure of Redis is thrown as Spring's {@link DataAccessException}: at once while the application's
 * connection is down, and after {@code read-timeout} when Redis does not answer (the README's "While Redis is
 * away"). Missing and unreadable values
 * are never kept: the caller sees them in {@link Values}, and may write them back, which invalidates
 * them like any write.
 *
 * <p>The staleness bound, and how each part of it is tested: the library's README, "Staleness".
 *
 * @param <V> the values it serves, decoded once per read from Redis
 */
public final class NearCache<V> implements AutoCloseable {

    private final String name;

    private final NearCacheTracking owner;

    /** Lettuce's whenever the near cache is on; turned off, any client's. */
    private final RedisConnectionFactory connectionFactory;

    private final ValueDecoder<V> decoder;

    private final Settings settings;

    private final Stats counters = new Stats();

    private final LocalCopy.Counters copyCounters = new LocalCopy.Counters();

    /** The most the copy weighs: this cache's share of the budget of all caches, until the tracking shares it again. */
    private volatile long maximumBytes;

    /** Misses of each key being read from Redis now, which later misses of the same key join. */
    private final Map<RedisKey, Flight> flights = new ConcurrentHashMap<>();

    /** Null while tracking is not active: then every read goes to Redis. */
    private volatile LocalCopy copy;

    /** Whether the copy may answer: false while a tracking connection is late with its heartbeat. */
    private volatile boolean serving;

    private volatile boolean closed;

    /** What every cache of one tracking shares: the prefixes, the bound in bytes, the local time-to-live, whether misses read TTLs, how long a read waits. */
    record Settings(List<byte[]> prefixes, long maximumBytes, Duration timeToLive, boolean readTtl, Duration readTimeout) {
    }

    NearCache(String name, NearCacheTracking owner, RedisConnectionFactory connectionFactory, ValueDecoder<V> decoder, Settings settings) {
        this.name = name;
        this.owner = owner;
        this.connectionFactory = connectionFactory;
        this.decoder = decoder;
        this.settings = settings;
        this.maximumBytes = settings.maximumBytes();
    }

    /** The name it was made with: its meters' {@code cache} tag. */
    public String name() {
        return name;
    }

    /** The copy's value of {@code key}, or null when it holds none or does not answer now: never a command. */
    public V getIfPresent(String key) {
        return held(key, true);
    }

    /**
     * As {@link #getIfPresent}, but a key the copy lacks is not counted as a miss: for a caller that reads it next through
     * {@link #getAll}, which counts it.
     */
    V peek(String key) {
        return held(key, false);
    }

    @SuppressWarnings("unchecked")
    private V held(String key, boolean countMiss) {
        open();
        LocalCopy current = copy;
        if (current == null || !serving) {
            return null;
        }
        RedisKey redisKey = RedisKey.of(key);
        V value = isTracked(redisKey) ? (V) current.get(redisKey) : null;
        if (value != null) {
            counters.hits.increment();
        }
        else if (countMiss) {
            counters.misses.increment();
        }
        return value;
    }

    /** Each key's value, in the order asked: from the copy where it holds it, the rest with one read of Redis. */
    public Values<V> getAll(List<String> keys) {
        open();
        List<RedisKey> redisKeys = new ArrayList<>(keys.size());
        keys.forEach(key -> redisKeys.add(RedisKey.of(key)));
        return read(keys, redisKeys).values();
    }

    /**
     * A value computed by {@code combine} from the values of {@code keys}, kept in the copy until one of
     * those keys is invalidated or expires: {@code combine} runs on the first {@link Derived#get()} of
     * each copy and after each such change, not on a warm one. Its weight is that of the values it was
     * computed from. It is never kept if a key is outside the tracked prefixes.
     */
    public <R> Derived<R> derive(List<String> keys, Function<Values<V>, R> combine) {
        List<String> fixed = List.copyOf(keys);
        List<RedisKey> redisKeys = fixed.stream().map(RedisKey::of).toList();
        int[] stripes = LocalCopy.stripes(redisKeys);
        boolean tracked = redisKeys.stream().allMatch(this::isTracked);
        Object id = new Object();
        return new Derived<>(() -> derived(id, fixed, redisKeys, stripes, tracked, combine));
    }

    /** Whether the copy answers: tracking is active, and every tracking connection answers its heartbeat. */
    public boolean isActive() {
        return copy != null && serving;
    }

    /** The entries the copy holds now (values and derived values), 0 while tracking is not active. */
    public long size() {
        LocalCopy current = copy;
        return (current == null) ? 0 : current.size();
    }

    /** The bytes the copy holds now, as it weighs them: each key and the bytes Redis held for it, plus 64 for the entry. */
    public long bytes() {
        LocalCopy current = copy;
        return (current == null) ? 0 : current.bytes();
    }

    /** Counts since the cache was made, for meters. */
    public Statistics statistics() {
        return new Statistics(counters.hits.sum(), counters.misses.sum(), counters.loads.sum(), counters.loadFailures.sum(),
                Duration.ofNanos(counters.loadNanos.sum()), counters.shared.sum(), copyCounters.refused.sum(), copyCounters.evictions.sum(),
                copyCounters.expirations.sum(), counters.invalidations.sum());
    }

    /**
     * What a near cache has done since it was made.
     *
     * @param hits reads of a key answered from the copy (a derived value counts once)
     * @param misses reads of a key the copy could not answer: not held, outside the prefixes, or the copy not answering
     * @param loads reads of Redis (each one round trip of an MGET, and PTTLs if read)
     * @param loadFailures reads of Redis that failed or timed out
     * @param loadTime the time all loads took
     * @param shared misses that joined another read's load of the same key instead of their own
     * @param refusedPuts values read from Redis and not kept, because their key changed meanwhile or the copy was replaced
     * @param evictions entries evicted to keep the copy within its bytes
     * @param expirations entries expired: the local time-to-live, or the key's TTL in Redis
     * @param invalidations keys Redis reported changed, each removed from the copy
     */
    public record Statistics(long hits, long misses, long loads, long loadFailures, Duration loadTime, long shared, long refusedPuts,
            long evictions, long expirations, long invalidations) {
    }

    /** Stops keeping anything: the copy goes, the tracking forgets the cache, and a later read fails. Idempotent. */
    @Override
    public void close() {
        closed = true;
        owner.forget(this);
        end();
    }

    private void open() {
        if (closed) {
            throw new IllegalStateException("The near cache '" + name + "' is closed");
        }
    }

    private boolean isTracked(RedisKey key) {
        return key.startsWithAny(settings.prefixes());
    }

    @SuppressWarnings("unchecked")
    private <R> R derived(Object id, List<String> keys, List<RedisKey> redisKeys, int[] stripes, boolean tracked,
            Function<Values<V>, R> combine) {
        open();
        LocalCopy current = copy;
        if (current == null || !serving || !tracked) {
            return combine.apply(read(keys, redisKeys).values());
        }
        long stamp = current.stamp(stripes); // before any key is read
        Object kept = current.derived(id, stamp);
        if (kept != null) {
            counters.hits.increment();
            return (R) kept;
        }
        Read<V> read = read(keys, redisKeys);
        R value = combine.apply(read.values());
        if (read.values().complete()) {
            current.putDerived(id, stripes, stamp, value, read.weight(), read.expiresAtNanos());
        }
        return value;
    }

    /** A read's values, with the weight of what they were made of and the first instant one of them expires. */
    private record Read<V>(Values<V> values, int weight, long expiresAtNanos) {
    }

    /** What one key's load found: a value, nothing, or bytes the decoder could not read; its weight and when it expires. */
    private record Loaded(Object value, boolean missing, int weight, long expiresAtNanos) {
    }

    /** One load of a key under way, against the copy and generation it was taken at: a later miss joins it only if neither moved. */
    private record Flight(LocalCopy copy, long generation, CompletableFuture<Loaded> loaded) {
    }

    @SuppressWarnings("unchecked")
    private Read<V> read(List<String> keys, List<RedisKey> redisKeys) {
        LocalCopy current = copy;
        boolean serve = current != null && serving;
        int size = keys.size();
        Object[] values = new Object[size];
        int weight = 0;
        long expiresAt = Long.MAX_VALUE;
        Map<RedisKey, Integer> missing = null;
        for (int i = 0; i < size; i++) {
            RedisKey key = redisKeys.get(i);
            LocalCopy.Entry entry = (serve && isTracked(key)) ? current.entry(key) : null;
            if (entry != null) {
                counters.hits.increment();
                values[i] = entry.value();
                weight = saturated(weight + entry.weight());
                expiresAt = Math.min(expiresAt, entry.expiresAtNanos());
            }
            else {
                counters.misses.increment();
                if (missing == null) {
                    missing = new LinkedHashMap<>();
                }
                missing.putIfAbsent(key, i);
            }
        }
        if (missing == null) {
            return new Read<>(new Values<>(list(values), List.of(), List.of()), weight, expiresAt);
        }
        Map<RedisKey, Loaded> loaded = load(current, new ArrayList<>(missing.keySet()));
        List<String> absent = new ArrayList<>();
        List<String> unreadable = new ArrayList<>();
        for (Map.Entry<RedisKey, Integer> miss : missing.entrySet()) {
            Loaded found = loaded.get(miss.getKey());
            String key = keys.get(miss.getValue());
            if (found.value() == null) {
                (found.missing() ? absent : unreadable).add(key);
            }
            weight = saturated(weight + found.weight());
            expiresAt = Math.min(expiresAt, found.expiresAtNanos());
        }
        for (int i = 0; i < size; i++) {
            if (values[i] == null) {
                values[i] = loaded.get(redisKeys.get(i)).value();
            }
        }
        return new Read<>(new Values<>(list(values), absent, unreadable), weight, expiresAt);
    }

    /**
     * Loads {@code keys} (each once): those another read is loading against the same copy and
     * generation are joined, the rest read with one MGET (and PTTLs), decoded, and put into
     * {@code current} (if any, and tracked) against each key's generation as it was before the read.
     */
    private Map<RedisKey, Loaded> load(LocalCopy current, List<RedisKey> keys) {
        Map<RedisKey, Loaded> loaded = new HashMap<>();
        if (current == null) {
            loaded.putAll(fetch(null, keys, new long[keys.size()]));
            return loaded;
        }
        List<RedisKey> own = new ArrayList<>();
        List<Flight> ownFlights = new ArrayList<>();
        Map<RedisKey, Flight> joined = new HashMap<>();
        for (RedisKey key : keys) {
            long generation = current.generation(key);
            if (!isTracked(key)) {
                // no invalidation would tell a joiner that a load under way is older than a write it saw: read it afresh
                own.add(key);
                ownFlights.add(new Flight(current, generation, new CompletableFuture<>()));
                continue;
            }
            Flight mine = new Flight(current, generation, new CompletableFuture<>());
            // one atomic step: two readers that looked, found nothing and then both registered would both read
            Flight flight = flights.compute(key, (k, under) -> under != null && under.copy() == current && under.generation() == generation
                    && !under.loaded().isCompletedExceptionally() ? under : mine);
            if (flight != mine) {
                joined.put(key, flight);
                counters.shared.increment();
                continue;
            }
            own.add(key);
            ownFlights.add(mine);
        }
        if (!own.isEmpty()) {
            long[] generations = new long[own.size()];
            for (int i = 0; i < generations.length; i++) {
                generations[i] = ownFlights.get(i).generation();
            }
            try {
                Map<RedisKey, Loaded> fetched = fetch(current, own, generations);
                loaded.putAll(fetched);
                for (int i = 0; i < own.size(); i++) {
                    ownFlights.get(i).loaded().complete(fetched.get(own.get(i)));
                }
            }
            catch (RuntimeException ex) {
                ownFlights.forEach(flight -> flight.loaded().completeExceptionally(ex));
                throw ex;
            }
            finally {
                for (int i = 0; i < own.size(); i++) {
                    flights.remove(own.get(i), ownFlights.get(i));
                }
            }
        }
        for (Map.Entry<RedisKey, Flight> join : joined.entrySet()) {
            loaded.put(join.getKey(), await(join.getValue().loaded()));
        }
        return loaded;
    }

    /** Another read's load: within the read time-out it is bounded by, and a second more. */
    private Loaded await(CompletableFuture<Loaded> loaded) {
        try {
            return loaded.get(settings.readTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
        }
        catch (ExecutionException ex) {
            throw (ex.getCause() instanceof DataAccessException failure) ? failure
                    : new RedisSystemException("A shared read of Redis failed", ex.getCause());
        }
        catch (TimeoutException ex) {
            throw new QueryTimeoutException("A shared read of Redis did not end within " + settings.readTimeout(), ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new RedisSystemException("Interrupted while waiting for a shared read of Redis", ex);
        }
    }

    /** One round trip: MGET of {@code keys}, and a PTTL of each if TTLs are read; decoded, and kept where it may be. */
    private Map<RedisKey, Loaded> fetch(LocalCopy current, List<RedisKey> keys, long[] generations) {
        byte[][] raw = new byte[keys.size()][];
        for (int i = 0; i < raw.length; i++) {
            raw[i] = keys.get(i).bytes();
        }
        boolean readTtl = current != null && settings.readTtl();
        long started = System.nanoTime();
        List<byte[]> stored;
        long[] ttls = null;
        counters.loads.increment();
        try (RedisConnection connection = connectionFactory.getConnection()) {
            if (!(connectionFactory instanceof LettuceConnectionFactory)) {
                // another client, which only a near cache turned off takes: nothing is kept, so no TTL is read either
                stored = connection.stringCommands().mGet(raw);
            }
            else {
                @SuppressWarnings("unchecked")
                RedisClusterAsyncCommands<byte[], byte[]> commands = (RedisClusterAsyncCommands<byte[], byte[]>) connection.getNativeConnection();
                if (isDown(commands)) {
                    // Lettuce would queue the read until it reconnects, which takes as long as Redis is away and its back-off
                    throw new RedisConnectionFailureException("The connection to Redis is down; Lettuce is reconnecting");
                }
                RedisFuture<List<KeyValue<byte[], byte[]>>> mget = commands.mget(raw);
                // a PTTL only of the keys that may be kept: the tracked ones
                List<RedisFuture<Long>> pttls = new ArrayList<>();
                if (readTtl) {
                    for (int i = 0; i < raw.length; i++) {
                        pttls.add(isTracked(keys.get(i)) ? commands.pttl(raw[i]) : null);
                    }
                }
                long deadline = started + settings.readTimeout().toNanos();
                List<KeyValue<byte[], byte[]>> replies = awaitReply(mget, deadline);
                stored = (replies == null) ? null
                        : replies.stream().map(reply -> (reply != null && reply.hasValue()) ? reply.getValue() : null).toList();
                if (readTtl) {
                    ttls = new long[raw.length];
                    for (int i = 0; i < raw.length; i++) {
                        ttls[i] = (pttls.get(i) == null) ? -2L : Objects.requireNonNullElse(awaitReply(pttls.get(i), deadline), -2L);
                    }
                }
            }
        }
        catch (RuntimeException ex) {
            counters.loadFailures.increment();
            throw translated(ex);
        }
        finally {
            counters.loadNanos.add(System.nanoTime() - started);
        }
        if (stored == null || stored.size() != raw.length) {
            counters.loadFailures.increment();
            throw new RedisSystemException("MGET of " + raw.length + " keys answered " + (stored == null ? "nothing" : stored.size() + " values"), null);
        }
        long localExpiry = started + settings.timeToLive().toNanos();
        Map<RedisKey, Loaded> loaded = new HashMap<>();
        for (int i = 0; i < raw.length; i++) {
            RedisKey key = keys.get(i);
            byte[] bytes = stored.get(i);
            V value = (bytes == null) ? null : decoder.decode(key.toString(), bytes);
            int weight = saturated(64 + key.length() + (bytes == null ? 0 : bytes.length));
            long expiresAt = localExpiry;
            boolean keep = value != null && current != null && isTracked(key);
            if (ttls != null) {
                if (ttls[i] >= 0) {
                    // PTTL counts whole milliseconds from Redis's clock: a millisecond less, so as never to outlive the key
                    expiresAt = Math.min(expiresAt, started + TimeUnit.MILLISECONDS.toNanos(ttls[i] - 1));
                }
                // -1: no TTL; -2: gone between the MGET and the PTTL, or no answer: not kept
                keep &= ttls[i] > 1 || ttls[i] == -1;
            }
            if (keep) {
                current.put(key, generations[i], value, weight, expiresAt);
            }
            loaded.put(key, new Loaded(value, bytes == null, weight, expiresAt));
        }
        return loaded;
    }

    /**
     * Whether the application's connection to one Redis server is closed now. A cluster's connection counts as open while
     * any of its masters answers, so on a cluster a read of a master that is down fails after the read time-out instead.
     */
    private static boolean isDown(RedisClusterAsyncCommands<byte[], byte[]> commands) {
        return commands instanceof RedisAsyncCommands<byte[], byte[]> single && !single.getStatefulConnection().isOpen();
    }

    private <T> T awaitReply(RedisFuture<T> future, long deadlineNanos) {
        try {
            return future.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        catch (ExecutionException ex) {
            throw (ex.getCause() instanceof RuntimeException failure) ? failure : new RedisSystemException("Redis failed", ex.getCause());
        }
        catch (TimeoutException ex) {
            future.cancel(false);
            throw new QueryTimeoutException("Redis did not answer within " + settings.readTimeout(), ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new RedisSystemException("Interrupted while reading Redis", ex);
        }
    }

    private DataAccessException translated(RuntimeException ex) {
        if (ex instanceof DataAccessException translated) {
            return translated;
        }
        DataAccessException translated = connectionFactory.translateExceptionIfPossible(ex);
        return (translated != null) ? translated : new RedisSystemException("Redis failed: " + ex.getMessage(), ex);
    }

    private static int saturated(long weight) {
        return (int) Math.min(Integer.MAX_VALUE, weight);
    }

    @SuppressWarnings("unchecked")
    private List<V> list(Object[] values) {
        return (List<V>) Arrays.asList(values);
    }

    /**
     * This cache's share of the memory budget of all caches ({@code redis.near-cache.maximum-memory}): the copy evicts down
     * to it now, and each new copy is made with it. Under the tracking's lock, whenever a cache opens or closes.
     */
    void share(long maximumBytes) {
        this.maximumBytes = maximumBytes;
        LocalCopy current = copy;
        if (current != null) {
            current.resize(maximumBytes);
        }
    }

    /** This cache's share of the memory budget, in bytes. */
    long maximumBytes() {
        return maximumBytes;
    }

    /** A new session began: Redis tracks for every connection; a new, empty copy. Under the tracking's lock. */
    void begin() {
        LocalCopy previous = copy;
        copy = new LocalCopy(maximumBytes, copyCounters);
        if (previous != null) {
            previous.discard();
        }
    }

    /** Tracking was lost, or the cache closed: the copy goes now, and readers still holding it can neither read from it nor fill it. */
    void end() {
        LocalCopy dropped = copy;
        copy = null;
        if (dropped != null) {
            dropped.discard();
        }
    }

    /** Whether the copy may answer; under the tracking's lock. */
    void serve(boolean serve) {
        serving = serve;
    }

    /** Redis reported a flush: everything may have changed, so a new, empty copy replaces the one there is, if any. */
    void flushed() {
        if (copy != null) {
            begin();
        }
    }

    /** On Lettuce's event loop: quick, never blocking. */
    void invalidate(RedisKey key) {
        LocalCopy current = copy;
        if (current != null) {
            current.invalidate(key);
            counters.invalidations.increment();
        }
    }

    /**
     * This application wrote {@code key} through Redis, and Redis answered: the key goes from the copy now.
     * The write's own invalidation can arrive after its reply, and until then the writer's next read
     * would find the value from before. Not counted as an invalidation: Redis did not report it.
     */
    void written(String key) {
        LocalCopy current = copy;
        if (current != null) {
            current.invalidate(RedisKey.of(key));
        }
    }

    /** This application deleted every key it reads here: a new, empty copy now, under the tracking's lock as every new copy. */
    void cleared() {
        synchronized (owner) {
            flushed();
        }
    }

    /** The copy answering now, or null: for the tests. */
    LocalCopy copy() {
        return copy;
    }

    private static final class Stats {

        final LongAdder hits = new LongAdder();

        final LongAdder misses = new LongAdder();

        final LongAdder loads = new LongAdder();

        final LongAdder loadFailures = new LongAdder();

        final LongAdder loadNanos = new LongAdder();

        final LongAdder shared = new LongAdder();

        final LongAdder invalidations = new LongAdder();
    }
}
