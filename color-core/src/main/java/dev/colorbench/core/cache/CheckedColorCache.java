package dev.colorbench.core.cache;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.colorbench.core.palette.Color;
import dev.colorbench.core.redis.ColorCodec;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.core.redis.Healing;
import dev.colorbench.core.redis.RedisClientFailures;
import dev.colorbench.core.redis.RedisReplies;

import org.springframework.cache.Cache;
import org.springframework.data.redis.cache.RedisCache;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.connection.DataType;
import org.springframework.data.redis.util.ByteUtils;

/**
 * A cache of colors, with every value read from it checked against its key: a cached value is a
 * hit only if it is readable for the key it is cached under. For the color cache
 * ({@link ColorKeys#CACHE_NAME}) that is a color of the key's name ({@link ColorCodec#isReadable}),
 * for the palette cache ({@link ColorKeys#PALETTE_CACHE_NAME}) the whole palette in canonical order
 * ({@link ColorCodec#isReadablePalette}). The cache's serializer can tell that a value is not JSON,
 * but not that it is another color's JSON, since it never sees the key; this decorator does.
 *
 * <p>Blocking reads ({@code get}, what {@code @Cacheable} on a blocking method uses) report an
 * unreadable value the way the serializer reports unparseable ones, by throwing, so that
 * {@link UnreadableColorCacheHandler} turns both into a miss: it warns, evicts, and Spring loads
 * the value and puts it back.
 *
 * <p>The asynchronous read with a loader ({@code retrieve(key, loader)}, what
 * {@code @Cacheable(sync = true)} on a method returning {@code CompletableFuture} uses) heals
 * inside the future instead: a miss, an unparseable value, a value of another color or a key of
 * another type is loaded and stored asynchronously ({@code RedisCacheWriter.store}, as
 * {@code RedisCache} stores a miss), with one warning for a bad value; a store Redis refuses is
 * logged and the loaded value answered. Nothing on that path blocks, which matters because its
 * stages run on the thread that completed the Redis reply, Lettuce's event loop: the error
 * handler's evict, or Spring's {@code put} of a miss, are blocking calls under the core's immediate
 * writes, and a blocking Redis call on that thread waits for a reply only that thread can read.
 * Other failures fail the future as Redis failures ({@link RedisClientFailures}: the reactive path
 * lets a raw I/O error through where the blocking one would have translated it).
 * The plain {@code retrieve(key)} is checked too (an unreadable value fails its future, for the
 * error handler), but only {@code retrieve(key, loader)} is non-blocking end to end.
 *
 * <p>A {@code GET} of a key that holds another Redis type fails with {@code WRONGTYPE}, which the
 * error handler heals. A cache that reads with {@code MGET} (the near cache library's
 * {@code NearRedisCache}, which reads a miss of its local copy that way) answers such a key as
 * nothing instead. For such a cache the color cache is made with {@code checkMisses}: a blocking read
 * that finds nothing asks for the key's {@code TYPE} (one command, on a miss only), and a key of
 * another type than a string is unreadable, as the {@code WRONGTYPE} would have made it.
 */
final class CheckedColorCache implements Cache {

    private final Cache delegate;

    private final BiPredicate<Object, Object> readable;

    private final String keyPrefix;

    /** The Redis cache behind, whose misses are asked for their key's type; null when they are not. */
    private final RedisCache checkedMisses;

    private CheckedColorCache(Cache delegate, BiPredicate<Object, Object> readable, boolean checkMisses) {
        this.delegate = delegate;
        this.readable = readable;
        this.keyPrefix = keyPrefix(delegate);
        this.checkedMisses = (checkMisses && delegate instanceof RedisCache redis) ? redis : null;
    }

    /**
     * The color cache: a value is readable when it is a consistent color of the key's name. With {@code checkMisses}, a
     * blocking read that finds nothing asks for the key's type: for a cache whose reads answer a key of another type as a
     * miss.
     */
    static CheckedColorCache ofColors(Cache delegate, boolean checkMisses) {
        return new CheckedColorCache(delegate, (key, value) -> value instanceof Color color && ColorCodec.isReadable(String.valueOf(key), color),
                checkMisses);
    }

    /** The palette cache: a value is readable when it is the whole palette in canonical order. */
    static CheckedColorCache ofPalette(Cache delegate) {
        return new CheckedColorCache(delegate, (key, value) -> ColorCodec.isReadablePalette(value), false);
    }

    /** The Redis key {@code cache} keeps {@code key} under, for log lines. */
    static String redisKey(Cache cache, Object key) {
        return (cache instanceof CheckedColorCache checked) ? checked.keyPrefix + key : keyPrefix(cache) + key;
    }

    private static String keyPrefix(Cache cache) {
        if (cache instanceof RedisCache redis) {
            return redis.getCacheConfiguration().usePrefix() ? redis.getCacheConfiguration().getKeyPrefixFor(redis.getName()) : "";
        }
        return cache.getName() + "::";
    }

    /** A cached value that is not a readable color for its key. */
    static final class UnreadableValueException extends RuntimeException {

        UnreadableValueException(String key) {
            super("Not a readable color at " + key, null, false, false);
        }
    }

    @Override
    public ValueWrapper get(Object key) {
        ValueWrapper found = delegate.get(key);
        if (found != null) {
            check(key, found.get());
        }
        else {
            checkMiss(key);
        }
        return found;
    }

    @Override
    public <T> T get(Object key, Class<T> type) {
        T found = delegate.get(key, type);
        if (found != null) {
            check(key, found);
        }
        else {
            checkMiss(key);
        }
        return found;
    }

    /**
     * For a cache whose reads answer a key of another type as a miss: one {@code TYPE} of the key, and a key of another
     * type than a string is unreadable. A string there (a value the cache could not read, which it reported itself, or
     * one written since) stays a miss.
     */
    private void checkMiss(Object key) {
        if (checkedMisses == null) {
            return;
        }
        RedisCacheConfiguration configuration = checkedMisses.getCacheConfiguration();
        byte[] binaryKey = ByteUtils.getBytes(configuration.getKeySerializationPair().write(keyPrefix + key));
        DataType type = checkedMisses.getNativeCache().execute(connection -> connection.keyCommands().type(binaryKey));
        if (type != null && type != DataType.NONE && type != DataType.STRING) {
            throw new UnreadableValueException(keyPrefix + key);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T get(Object key, Callable<T> valueLoader) {
        ValueWrapper found = get(key);
        return (found != null) ? (T) found.get() : delegate.get(key, valueLoader);
    }

    private void check(Object key, Object value) {
        if (!readable.test(key, value)) {
            throw new UnreadableValueException(keyPrefix + key);
        }
    }

    @Override
    public String getName() {
        return delegate.getName();
    }

    @Override
    public Object getNativeCache() {
        return delegate.getNativeCache();
    }

    /** Checked like {@code get}: an unreadable value fails the future with {@link UnreadableValueException}. */
    @Override
    public CompletableFuture<?> retrieve(Object key) {
        CompletableFuture<?> found = delegate.retrieve(key);
        return (found == null) ? null : found.thenApply(value -> {
            if (value != null) {
                check(key, (value instanceof ValueWrapper wrapper) ? wrapper.get() : value);
            }
            return value;
        });
    }

    /**
     * The delegate's read-through (a hit, or a miss loaded and stored), then the check; a value that
     * is unreadable, or a key of another type, is loaded and stored again, with one warning.
     */
    @Override
    public <T> CompletableFuture<T> retrieve(Object key, Supplier<CompletableFuture<T>> valueLoader) {
        return delegate.retrieve(key, valueLoader)
                .handle((value, error) -> (error == null && readable.test(key, value)) ? CompletableFuture.completedFuture(value)
                        : reload(key, error, valueLoader))
                .thenCompose(Function.identity());
    }

    private <T> CompletableFuture<T> reload(Object key, Throwable error, Supplier<CompletableFuture<T>> valueLoader) {
        Throwable cause = UnreadableColorCacheHandler.unwrap(error);
        if (cause != null && RedisReplies.isRefusedWrite(cause)) {
            Healing.writeRefused(1, cause);
            return valueLoader.get();
        }
        if (cause != null && !UnreadableColorCacheHandler.isUnreadable(cause)) {
            return CompletableFuture.failedFuture(RedisClientFailures.isUntranslated(cause) ? RedisClientFailures.translate(cause) : cause);
        }
        Healing.unreadable(keyPrefix + key);
        return valueLoader.get().thenCompose(value -> store(key, value).handle((stored, failure) -> {
            Throwable refused = UnreadableColorCacheHandler.unwrap(failure);
            if (refused != null) {
                if (!RedisReplies.isRefusedWrite(refused)) {
                    throw (refused instanceof RuntimeException runtime) ? runtime : new IllegalStateException(refused);
                }
                Healing.writeRefused(1, refused);
            }
            return value;
        }));
    }

    /**
     * Writes {@code value} without blocking, as {@code RedisCache} writes a miss it loaded: the key
     * and value serialized by the cache's own configuration, through its writer's {@code store}.
     * The color caches' keys are names, strings, which {@code RedisCache} uses as they are.
     */
    private CompletableFuture<Void> store(Object key, Object value) {
        if (!(delegate instanceof RedisCache redis)) {
            delegate.put(key, value);
            return CompletableFuture.completedFuture(null);
        }
        RedisCacheConfiguration configuration = redis.getCacheConfiguration();
        byte[] binaryKey = ByteUtils.getBytes(configuration.getKeySerializationPair().write(keyPrefix + key));
        byte[] binaryValue = ByteUtils.getBytes(configuration.getValueSerializationPair().write(value));
        Duration ttl = configuration.getTtlFunction().getTimeToLive(key, value);
        return redis.getNativeCache().store(redis.getName(), binaryKey, binaryValue, ttl);
    }

    @Override
    public void put(Object key, Object value) {
        delegate.put(key, value);
    }

    @Override
    public ValueWrapper putIfAbsent(Object key, Object value) {
        return delegate.putIfAbsent(key, value);
    }

    @Override
    public void evict(Object key) {
        delegate.evict(key);
    }

    @Override
    public boolean evictIfPresent(Object key) {
        return delegate.evictIfPresent(key);
    }

    @Override
    public void clear() {
        delegate.clear();
    }

    @Override
    public boolean invalidate() {
        return delegate.invalidate();
    }
}
