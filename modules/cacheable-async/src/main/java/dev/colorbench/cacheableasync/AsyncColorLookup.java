package dev.colorbench.cacheableasync;

import java.util.concurrent.CompletableFuture;

import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorKeys;

import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;

/**
 * The cached single-key lookup, asynchronous. It is a bean of its own because {@code @Cacheable}
 * works through a proxy: a call from inside the same class would bypass the cache.
 *
 * <p>Because the method returns a {@code CompletableFuture}, Spring does not block on the cache:
 * it returns at once with a future of the cached value. {@code sync = true} makes that future
 * {@code Cache.retrieve(key, loader)}: the read, and on a miss the load and the write, all
 * completed without a blocking call. Without it Spring would call {@code retrieve(key)} and, on a
 * miss, {@code put}, which under the core's immediate writes is a blocking {@code SET} on the thread
 * that completed the read: Lettuce's event loop, the one thread that could read its reply.
 */
@Service
class AsyncColorLookup {

    /** Cached as {@code colors::v1::<name>}, the keys of cacheable-loop; on a miss, the palette is the source of truth. */
    @Cacheable(cacheNames = ColorKeys.CACHE_NAME, sync = true)
    public CompletableFuture<Color> findByName(String name) {
        return CompletableFuture.completedFuture(Palette.find(name).orElseThrow());
    }
}
