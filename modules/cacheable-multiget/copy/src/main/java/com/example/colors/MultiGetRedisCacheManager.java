package com.example.colors;

import java.util.Map;

import org.springframework.data.redis.cache.RedisCache;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.cache.RedisCacheWriter;

/**
 * A {@link RedisCacheManager} whose caches are {@link MultiGetRedisCache}s: the same caches, keys and values, with the
 * bulk methods added. {@code RedisCacheManager}'s builder always builds its own class, so this one is built with a
 * constructor; {@link #createRedisCache} is the one method that differs.
 */
public class MultiGetRedisCacheManager extends RedisCacheManager {

    /**
     * @param cacheWriter how the caches talk to Redis
     * @param defaults the configuration of any cache not in {@code initialCaches}
     * @param initialCaches caches created at start, by name, each with its own configuration
     */
    public MultiGetRedisCacheManager(RedisCacheWriter cacheWriter, RedisCacheConfiguration defaults,
            Map<String, RedisCacheConfiguration> initialCaches) {
        super(cacheWriter, defaults, initialCaches);
    }

    @Override
    protected RedisCache createRedisCache(String name, RedisCacheConfiguration cacheConfiguration) {
        return new MultiGetRedisCache(name, getCacheWriter(), (cacheConfiguration != null) ? cacheConfiguration : getDefaultCacheConfiguration());
    }
}
