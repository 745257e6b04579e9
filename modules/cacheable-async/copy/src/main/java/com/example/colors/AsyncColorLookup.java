package com.example.colors;

import java.util.concurrent.CompletableFuture;

import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;

/**
 * The cached lookup of one color, a bean of its own because {@code @Cacheable} works through a proxy: a call from inside
 * the same class would bypass the cache. Returning a {@code CompletableFuture}, with {@code sync = true}, makes Spring
 * ask the cache for {@code retrieve(key, loader)}: the GET, and on a miss the load and the SET, without a blocking call.
 * Without {@code sync = true} a miss is a blocking SET on the thread that completed the GET, Lettuce's event loop.
 */
@Service
class AsyncColorLookup {

    private final ColorSource source;

    AsyncColorLookup(ColorSource source) {
        this.source = source;
    }

    /** Cached as colors::v1::&lt;name&gt;; on a miss, the source is the truth. */
    @Cacheable(cacheNames = "colors::v1", sync = true)
    public CompletableFuture<Color> findByName(String name) {
        return CompletableFuture.completedFuture(source.find(name));
    }
}
