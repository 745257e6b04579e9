package dev.colorbench.core.cache;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.colorbench.core.redis.ColorKeys;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.CachingConfigurer;
import org.springframework.cache.interceptor.CacheErrorHandler;
import org.springframework.cache.interceptor.CacheOperationInvocationContext;
import org.springframework.cache.interceptor.CacheResolver;

/**
 * How the core takes part in every {@code @Cacheable} module's caching, without a line in the
 * module: the color cache ({@link ColorKeys#CACHE_NAME}) and the palette cache
 * ({@link ColorKeys#PALETTE_CACHE_NAME}) are resolved as {@link CheckedColorCache}s, and cache
 * errors go to {@link UnreadableColorCacheHandler}. Other caches are used as the cache
 * manager gives them. The cache manager is looked up when first needed, as Spring's own resolver
 * does, since Spring Boot creates it after this configurer.
 */
final class ColorCacheConfigurer implements CachingConfigurer {

    private final ObjectProvider<CacheManager> cacheManager;

    private final Map<String, Cache> caches = new ConcurrentHashMap<>();

    private final boolean missesMayHideAnotherType;

    /**
     * @param missesMayHideAnotherType whether the cache manager's reads answer a key of another Redis type as a miss
     * (the near cache manager's MGET) rather than failing with {@code WRONGTYPE}: the color cache then asks a miss for its
     * key's type
     */
    ColorCacheConfigurer(ObjectProvider<CacheManager> cacheManager, boolean missesMayHideAnotherType) {
        this.cacheManager = cacheManager;
        this.missesMayHideAnotherType = missesMayHideAnotherType;
    }

    @Override
    public CacheResolver cacheResolver() {
        return this::resolve;
    }

    @Override
    public CacheErrorHandler errorHandler() {
        return new UnreadableColorCacheHandler();
    }

    private Collection<? extends Cache> resolve(CacheOperationInvocationContext<?> context) {
        Collection<String> names = context.getOperation().getCacheNames();
        List<Cache> resolved = new ArrayList<>(names.size());
        for (String name : names) {
            resolved.add(caches.computeIfAbsent(name, this::cache));
        }
        return resolved;
    }

    private Cache cache(String name) {
        Cache cache = cacheManager.getObject().getCache(name);
        if (cache == null) {
            throw new IllegalArgumentException("No cache named '" + name + "'");
        }
        return switch (name) {
            case ColorKeys.CACHE_NAME -> CheckedColorCache.ofColors(cache, missesMayHideAnotherType);
            case ColorKeys.PALETTE_CACHE_NAME -> CheckedColorCache.ofPalette(cache);
            default -> cache;
        };
    }
}
