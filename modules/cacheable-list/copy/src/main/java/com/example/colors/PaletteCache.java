package com.example.colors;

import java.util.List;

import org.springframework.data.redis.cache.RedisCache;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheWriter;
import org.springframework.data.redis.serializer.SerializationException;

/**
 * A Redis cache whose palette is read only whole. The serializer fails on a value that is not a list of colors, but it
 * takes a list with a color missing, added or out of place for a hit; here that is unreadable too, and the error handler
 * of {@link CacheSettings} makes both a miss, so that a read never answers a partial or reordered palette.
 */
class PaletteCache extends RedisCache {

    private final List<String> names;

    PaletteCache(String name, RedisCacheWriter cacheWriter, RedisCacheConfiguration cacheConfiguration, List<String> names) {
        super(name, cacheWriter, cacheConfiguration);
        this.names = names;
    }

    @Override
    protected Object lookup(Object key) {
        Object value = super.lookup(key);
        if (value != null && !isWhole(value)) {
            throw new SerializationException("Not the whole palette, in order, at " + getName() + "::" + key);
        }
        return value;
    }

    /** Every color of the palette, each where the source has it. */
    private boolean isWhole(Object value) {
        if (!(value instanceof List<?> colors) || colors.size() != names.size()) {
            return false;
        }
        for (int i = 0; i < names.size(); i++) {
            if (!(colors.get(i) instanceof Color color && color.name().equals(names.get(i)))) {
                return false;
            }
        }
        return true;
    }
}
