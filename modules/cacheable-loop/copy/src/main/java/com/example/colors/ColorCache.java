package com.example.colors;

import org.springframework.data.redis.cache.RedisCache;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheWriter;
import org.springframework.data.redis.serializer.SerializationException;

/**
 * A Redis cache whose reads are checked against their key. The serializer fails on a value that is not a color, but
 * never sees the key, so it takes another color's JSON for a hit; here that is unreadable too, and the error handler of
 * {@link CacheSettings} makes both a miss.
 */
class ColorCache extends RedisCache {

    ColorCache(String name, RedisCacheWriter cacheWriter, RedisCacheConfiguration cacheConfiguration) {
        super(name, cacheWriter, cacheConfiguration);
    }

    @Override
    protected Object lookup(Object key) {
        Object value = super.lookup(key);
        if (value instanceof Color color && !color.name().equals(key)) {
            throw new SerializationException("The color " + color.name() + " is cached as " + key);
        }
        return value;
    }
}
