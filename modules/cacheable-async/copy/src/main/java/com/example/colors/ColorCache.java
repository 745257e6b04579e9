package com.example.colors;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.cache.RedisCache;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheWriter;
import org.springframework.data.redis.serializer.SerializationException;

/**
 * The color cache, each value it finds checked against its key inside the future. A value that is not JSON, not a
 * color, another color's, or a key of another type is a miss: loaded through the cached method and stored again, GET +
 * SET, without a blocking call. Spring hands a failed read to its {@code CacheErrorHandler}, which fails the request (a
 * 500); healing there would be an evict and a put that block the thread that completed the read, Lettuce's event loop,
 * the one thread that could read their replies.
 */
class ColorCache extends RedisCache {

    private static final Logger log = LoggerFactory.getLogger(ColorCache.class);

    ColorCache(String name, RedisCacheWriter cacheWriter, RedisCacheConfiguration cacheConfiguration) {
        super(name, cacheWriter, cacheConfiguration);
    }

    @Override
    public <T> CompletableFuture<T> retrieve(Object key, Supplier<CompletableFuture<T>> valueLoader) {
        return super.retrieve(key, valueLoader)
                .handle((value, error) -> (error == null && value instanceof Color color && key.equals(color.name()))
                        ? CompletableFuture.completedFuture(value) : reload(key, error, valueLoader))
                .thenCompose(Function.identity());
    }

    private <T> CompletableFuture<T> reload(Object key, Throwable error, Supplier<CompletableFuture<T>> valueLoader) {
        Throwable cause = error;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause != null && !isUnreadable(cause)) {
            return CompletableFuture.failedFuture(
                    isRedisClientFailure(cause) ? new RedisConnectionFailureException("Redis connection failed", cause) : cause);
        }
        String redisKey = createCacheKey(key);
        log.warn("Unreadable value at {}, written again", redisKey);
        return valueLoader.get().thenCompose(value -> store(redisKey, key, value).handle((stored, failure) -> {
            if (failure != null) {
                log.warn("Could not write {} back to Redis: {}", redisKey, failure.getMessage());
            }
            return value;
        }));
    }

    /** As {@code RedisCache} stores a miss it loaded: asynchronously, through its writer. */
    private CompletableFuture<Void> store(String redisKey, Object key, Object value) {
        Duration ttl = getCacheConfiguration().getTtlFunction().getTimeToLive(key, value);
        return getCacheWriter().store(getName(), serializeCacheKey(redisKey), serializeCacheValue(value), ttl);
    }

    /**
     * Not JSON or not a color ({@link SerializationException}), or a key of another type (Redis answered
     * {@code WRONGTYPE}): bad data, not an outage.
     */
    private static boolean isUnreadable(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            boolean wrongType = cause.getMessage() != null && cause.getMessage().startsWith("WRONGTYPE");
            if (cause instanceof SerializationException || wrongType) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code error} is the Redis client's own and not yet a {@code DataAccessException}: on the reactive path that
     * {@code retrieve} runs on, Spring Data Redis lets a raw I/O error through, such as the connection reset of a command
     * in flight when Redis stops. It is made one here, so that it too is a 503 and not a 500.
     */
    private static boolean isRedisClientFailure(Throwable error) {
        if (error instanceof DataAccessException) {
            return false;
        }
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            String type = cause.getClass().getName();
            if (cause instanceof IOException || type.startsWith("io.netty.") || type.startsWith("io.lettuce.")) {
                return true;
            }
        }
        return false;
    }
}
