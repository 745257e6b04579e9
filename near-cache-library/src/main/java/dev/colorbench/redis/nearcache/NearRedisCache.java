package dev.colorbench.redis.nearcache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.data.redis.cache.CacheStatisticsCollector;
import org.springframework.data.redis.cache.RedisCache;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheWriter;
import org.springframework.data.redis.serializer.SerializationException;

/**
 * A Spring {@link org.springframework.cache.Cache} whose reads go through a {@link NearCache}, and whose
 * writes are {@link RedisCache}'s own: the same keys, the same bytes, the same commands. So what a
 * {@link org.springframework.data.redis.cache.RedisCacheManager} wrote, it reads, and the reverse. Made
 * by {@link NearCacheManager}, one per Spring cache, its near cache named after it.
 *
 * <p>A read costs nothing once the copy holds the key, and one MGET (and one PTTL) otherwise. A
 * write is one command, as {@code RedisCache}'s; once Redis answers, the key also leaves this
 * instance's copy, because the write's own invalidation can arrive after its reply: the writer's next
 * read sees its write. The other instances see it when the invalidation reaches them.
 *
 * <p>{@link #getAll} reads many keys at once: one MGET of just the keys the copy lacks.
 *
 * <p>The asynchronous reads of a {@code CompletableFuture}, {@code Mono} or {@code Flux} {@code @Cacheable} ({@link #retrieve})
 * go through the copy too: a hit completes at once, and a miss reads and keeps the key on the manager's executor.
 *
 * <p>A hit hands out the value the miss decoded, the same object to every caller, when its type cannot change
 * ({@code redis.near-cache.cache-manager.share-values}, {@link NearCacheProperties.ShareValues}); any other value is
 * decoded again from the kept bytes on each hit, as {@code RedisCache} decodes on each read, so that no caller's change
 * reaches another.
 */
public class NearRedisCache extends RedisCache {

    private static final Logger log = LoggerFactory.getLogger(NearRedisCache.class);

    /**
     * The loads under way in {@link #get(Object, Callable)}, by Redis key: a key is loaded once at a time here, and a slow
     * load holds up only the callers of its own key.
     */
    private final ConcurrentHashMap<String, Load> loading = new ConcurrentHashMap<>();

    /** A load under way: the thread that runs it, and what it will give the others. */
    private record Load(Thread loader, CompletableFuture<Object> result) {
    }

    private final NearCache<Object> near;

    /** Which decoded values a hit hands out as they are; the copy keeps the stored bytes of the others. */
    private final NearCacheProperties.ShareValues shared;

    /** What the copy keeps of a value a hit does not share: the bytes Redis held, decoded again on each hit. */
    private record Unshared(byte[] stored) {
    }

    private final CacheStatisticsCollector statistics;

    /** Where {@link #retrieve(Object)} reads a key the copy lacks. */
    private final Executor reads;

    NearRedisCache(String name, RedisCacheWriter cacheWriter, RedisCacheConfiguration configuration, NearCacheTracking tracking,
            CacheStatisticsCollector statistics, Executor reads) {
        super(name, cacheWriter, configuration);
        this.statistics = statistics;
        this.reads = reads;
        this.shared = tracking.properties().getCacheManager().getShareValues();
        this.near = tracking.newCache(name, this::decode);
    }

    /** The near cache the reads go through: its statistics, its size, whether it answers. */
    public NearCache<Object> nearCache() {
        return near;
    }

    /**
     * Runs on a miss, once per key read: what RedisCache would make of the bytes; null, a miss, if they are unreadable. The
     * copy keeps the value itself if hits share it, and otherwise the bytes, once they have been read as a value.
     */
    private Object decode(String key, byte[] stored) {
        try {
            Object value = deserializeCacheValue(stored);
            return shared.shares(value) ? value : new Unshared(stored);
        }
        catch (SerializationException ex) {
            log.warn("Near cache '{}': unreadable value at {}, read as a miss ({})", getName(), key, ex.getMessage());
            return null;
        }
    }

    /** What a hit hands out of what the copy keeps: the value itself, or one decoded from the kept bytes for this caller. */
    private Object handedOut(Object kept) {
        return (kept instanceof Unshared unshared) ? deserializeCacheValue(unshared.stored()) : kept;
    }

    /**
     * One key: from the copy, or one MGET. A value Redis holds but this cache cannot read is a miss, as none. A hit takes the
     * copy's value straight, without the lists a read of many keys builds: a {@code @Cacheable} loop makes one call per key.
     */
    @Override
    protected Object lookup(Object key) {
        String redisKey = createCacheKey(key);
        Object held = near.peek(redisKey);
        Object value = handedOut((held != null) ? held : near.getAll(List.of(redisKey)).values().get(0));
        count(value);
        return value;
    }

    /**
     * The values of {@code keys}, in their order: a wrapper for each key the cache holds (of null where
     * it holds a null value), and null where it holds nothing or nothing readable. The keys the copy
     * holds cost nothing, the rest one MGET together, and one PTTL each.
     */
    public List<ValueWrapper> getAll(Collection<?> keys) {
        List<String> redisKeys = new ArrayList<>(keys.size());
        for (Object key : keys) {
            redisKeys.add(createCacheKey(key));
        }
        List<Object> values = near.getAll(redisKeys).values();
        List<ValueWrapper> wrappers = new ArrayList<>(values.size());
        for (Object kept : values) {
            Object value = handedOut(kept);
            count(value);
            wrappers.add(toValueWrapper(value));
        }
        return Collections.unmodifiableList(wrappers);
    }

    private void count(Object value) {
        statistics.incGets(getName());
        if (value != null) {
            statistics.incHits(getName());
        }
        else {
            statistics.incMisses(getName());
        }
    }

    /**
     * The value of {@code key}, loaded and put if the cache holds none. One load of a key at a time in this instance: the
     * callers that miss while it runs wait for it and get what it loaded (or its exception), without a read of their own:
     * the same object if hits share it, a copy otherwise.
     * Callers of other keys never wait for it. A loader that asks for its own key again loads it again, as Spring's
     * {@code ConcurrentMapCache} does, rather than wait for itself.
     */
    @Override
    @SuppressWarnings("unchecked")
    public <T> T get(Object key, Callable<T> valueLoader) {
        ValueWrapper held = get(key);
        if (held != null) {
            return (T) held.get();
        }
        String redisKey = createCacheKey(key);
        Load mine = new Load(Thread.currentThread(), new CompletableFuture<>());
        Load running = loading.putIfAbsent(redisKey, mine);
        if (running != null && running.loader() != Thread.currentThread()) {
            try {
                return (T) handedOut(running.result().join());
            }
            catch (CompletionException ex) {
                if (ex.getCause() instanceof RuntimeException cause) {
                    throw cause;
                }
                if (ex.getCause() instanceof Error cause) {
                    throw cause;
                }
                throw ex;
            }
        }
        try {
            // a load that ended between the read above and this one's start has put its value
            held = get(key);
            T value = held != null ? (T) held.get() : loadCacheValue(key, valueLoader);
            if (held == null) {
                put(key, value);
            }
            // a value hits do not share reaches each waiting caller as a copy of its own, as a hit would
            mine.result().complete(shared.shares(value) ? value : new Unshared(serializeCacheValue(value)));
            return value;
        }
        catch (RuntimeException | Error ex) {
            mine.result().completeExceptionally(ex);
            throw ex;
        }
        finally {
            loading.remove(redisKey, mine);
        }
    }

    @Override
    public void put(Object key, Object value) {
        String redisKey = createCacheKey(key);
        try {
            super.put(key, value);
        }
        finally {
            near.written(redisKey);
        }
    }

    @Override
    public ValueWrapper putIfAbsent(Object key, Object value) {
        String redisKey = createCacheKey(key);
        try {
            return super.putIfAbsent(key, value);
        }
        finally {
            near.written(redisKey);
        }
    }

    @Override
    public void evict(Object key) {
        String redisKey = createCacheKey(key);
        try {
            super.evict(key);
        }
        finally {
            near.written(redisKey);
        }
    }

    @Override
    public boolean evictIfPresent(Object key) {
        String redisKey = createCacheKey(key);
        try {
            return super.evictIfPresent(key);
        }
        finally {
            near.written(redisKey);
        }
    }

    /** Deletes the keys matching {@code keyPattern} under the cache's prefix (SCAN and DEL), then empties the copy. {@link #clear()} is {@code "*"}. */
    @Override
    public void clear(String keyPattern) {
        try {
            super.clear(keyPattern);
        }
        finally {
            near.cleared();
        }
    }

    @Override
    public boolean invalidate() {
        try {
            return super.invalidate();
        }
        finally {
            near.cleared();
        }
    }

    /**
     * From the copy when it holds the key, without a command, on the caller's thread. Otherwise the key is read as
     * {@link #lookup} reads it, one MGET through the near cache, so that the value is kept and the next read costs nothing;
     * on the manager's executor for these reads, since a read can wait up to {@code redis.near-cache.read-timeout} and a
     * reactive caller's thread must not.
     */
    @Override
    public CompletableFuture<ValueWrapper> retrieve(Object key) {
        Object kept = near.peek(createCacheKey(key));
        if (kept != null) {
            Object value = handedOut(kept);
            count(value);
            return CompletableFuture.completedFuture(toValueWrapper(value));
        }
        return CompletableFuture.supplyAsync(() -> toValueWrapper(lookup(key)), reads);
    }

    /** As {@code RedisCache}'s, and the key leaves the copy once the write is done. */
    @Override
    @SuppressWarnings("unchecked")
    public <T> CompletableFuture<T> retrieve(Object key, Supplier<CompletableFuture<T>> valueLoader) {
        String redisKey = createCacheKey(key);
        return retrieve(key).thenCompose(held -> {
            if (held != null) {
                return CompletableFuture.completedFuture((T) held.get());
            }
            return valueLoader.get().thenCompose(value -> {
                Object stored = preProcessCacheValue(value);
                if (stored == null) {
                    throw new IllegalArgumentException("Cache '%s' does not allow 'null' values; Avoid storing null via"
                            .formatted(getName()) + " '@Cacheable(unless=\"#result == null\")' or configure RedisCache to allow 'null'"
                            + " via RedisCacheConfiguration");
                }
                Duration ttl = getCacheConfiguration().getTtlFunction().getTimeToLive(key, stored);
                return getCacheWriter().store(getName(), serializeCacheKey(redisKey), serializeCacheValue(stored), ttl)
                        .whenComplete((done, failure) -> near.written(redisKey))
                        .thenApply(done -> value);
            });
        });
    }
}
