package com.example.colors;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.data.redis.cache.RedisCache;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheWriter;
import org.springframework.data.redis.serializer.SerializationException;

/**
 * A {@link RedisCache} that also reads and writes many keys in one round trip: {@link #getAll} is one MGET,
 * {@link #putAll} one MSET. Spring's {@code Cache} has no bulk operation (spring-framework#23221 was closed with the
 * advice to build one), so {@code @Cacheable} called once per key costs one round trip per key.
 *
 * <p>Both go through the cache's own key prefix and serializers, as {@code get} and {@code put} do: what
 * {@code @Cacheable} puts, {@code getAll} reads, and what {@code putAll} writes is a hit for {@code @Cacheable}. They
 * leave out what MGET and MSET cannot do: cache statistics, a locking writer's lock, time-to-idle; entries with a time
 * to live are written one {@code put} each.
 */
public class MultiGetRedisCache extends RedisCache {

    private static final Logger log = LoggerFactory.getLogger(MultiGetRedisCache.class);

    public MultiGetRedisCache(String name, RedisCacheWriter cacheWriter, RedisCacheConfiguration cacheConfiguration) {
        super(name, cacheWriter, cacheConfiguration);
    }

    /**
     * The values cached under {@code keys}, in order, read with one MGET: null where a key holds nothing, a value the
     * serializer cannot read, or another Redis type than a string (MGET answers nil for it).
     */
    public List<ValueWrapper> getAll(List<?> keys) {
        if (keys.isEmpty()) {
            return List.of();
        }
        byte[][] binaryKeys = new byte[keys.size()][];
        for (int i = 0; i < keys.size(); i++) {
            binaryKeys[i] = serializeCacheKey(createCacheKey(keys.get(i)));
        }
        List<byte[]> stored = getCacheWriter().execute(connection -> connection.stringCommands().mGet(binaryKeys));
        List<ValueWrapper> values = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            byte[] value = (stored == null) ? null : stored.get(i);
            values.add((value == null) ? null : read(keys.get(i), value));
        }
        return values;
    }

    private ValueWrapper read(Object key, byte[] value) {
        try {
            return toValueWrapper(deserializeCacheValue(value));
        }
        catch (SerializationException ex) {
            log.warn("Unreadable value at {}, a miss", createCacheKey(key));
            return null;
        }
    }

    /**
     * Writes every entry with one MSET, each key and value as {@link #put} writes it; a null value is refused, as
     * {@code put} refuses it when nulls are not cached. Entries with a time to live are written one {@code put} each,
     * since MSET cannot set one.
     */
    public void putAll(Map<?, ?> entries) {
        if (entries.isEmpty()) {
            return;
        }
        Map<byte[], byte[]> binary = new LinkedHashMap<>();
        boolean expiring = false;
        for (Map.Entry<?, ?> entry : entries.entrySet()) {
            Object cacheValue = preProcessCacheValue(entry.getValue());
            if (cacheValue == null) {
                throw new IllegalArgumentException("Cache '%s' does not allow 'null' values".formatted(getName()));
            }
            Duration ttl = getCacheConfiguration().getTtlFunction().getTimeToLive(entry.getKey(), entry.getValue());
            expiring |= (ttl != null && !ttl.isZero() && !ttl.isNegative());
            binary.put(serializeCacheKey(createCacheKey(entry.getKey())), serializeCacheValue(cacheValue));
        }
        if (expiring) {
            entries.forEach(this::put);
            return;
        }
        getCacheWriter().execute(connection -> connection.stringCommands().mSet(binary));
    }
}
