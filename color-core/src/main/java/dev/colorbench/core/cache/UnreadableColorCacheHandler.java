package dev.colorbench.core.cache;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import dev.colorbench.core.redis.Healing;
import dev.colorbench.core.redis.RedisReplies;

import org.springframework.cache.Cache;
import org.springframework.cache.interceptor.CacheErrorHandler;
import org.springframework.data.redis.serializer.SerializationException;

/**
 * Turns an unreadable cached color (or palette) into a cache miss, and a refused cache write into
 * nothing, for every {@code @Cacheable} module; any other cache failure (Redis gone, a timeout) is
 * rethrown and becomes the 503 it always was.
 *
 * <p>A value is unreadable when the serializer cannot make a color of it
 * ({@link SerializationException}: not JSON, or another shape), when it is a color of another
 * name or with inconsistent channels, or a palette that is not whole and in order
 * ({@link CheckedColorCache}), or when the key holds another
 * Redis type ({@code WRONGTYPE}). The handler then warns once, naming the key, and evicts it;
 * Spring runs the cached method, which answers from the palette, and puts its result back.
 * Evicting first means that if Redis refuses that write, a miss is left behind rather than the
 * bad value, so the warning is not repeated on every read.
 *
 * <p>A put that Redis refuses (memory full under {@code noeviction}) is logged by
 * {@link Healing#writeRefused}, and the read goes on with the value the method computed.
 *
 * <p>On the asynchronous path ({@code @Cacheable} on a method returning {@code CompletableFuture})
 * Spring hands over what failed the future, a {@link CompletionException} around the real cause;
 * the handler looks inside it. ({@link CheckedColorCache}'s {@code retrieve(key, loader)} heals
 * bad values itself and sends only other failures here.)
 */
final class UnreadableColorCacheHandler implements CacheErrorHandler {

    /** Whether {@code error} (or what it wraps, on the asynchronous path) means an unreadable value rather than a failing Redis. */
    static boolean isUnreadable(Throwable error) {
        Throwable cause = unwrap(error);
        return cause instanceof CheckedColorCache.UnreadableValueException || cause instanceof SerializationException
                || RedisReplies.isWrongType(cause);
    }

    /** What failed a future: {@code error} without the {@link CompletionException}s around it; null for null. */
    static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    @Override
    public void handleCacheGetError(RuntimeException exception, Cache cache, Object key) {
        if (!isUnreadable(exception)) {
            throw exception;
        }
        Healing.unreadable(CheckedColorCache.redisKey(cache, key));
        cache.evict(key);
    }

    @Override
    public void handleCachePutError(RuntimeException exception, Cache cache, Object key, Object value) {
        if (!RedisReplies.isRefusedWrite(exception)) {
            throw exception;
        }
        Healing.writeRefused(1, exception);
    }

    @Override
    public void handleCacheEvictError(RuntimeException exception, Cache cache, Object key) {
        throw exception;
    }

    @Override
    public void handleCacheClearError(RuntimeException exception, Cache cache) {
        throw exception;
    }
}
