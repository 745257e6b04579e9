package dev.colorbench.core.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.cache.Cache;
import org.springframework.data.redis.cache.RedisCache;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheWriter;
import org.springframework.data.redis.connection.DataType;

/**
 * A {@link RedisCache} that can also read and write many keys in one round trip. Spring's
 * {@link Cache} has no bulk operation (spring-framework#23221 was closed with the advice to build
 * one), so {@code @Cacheable} called once per key costs one round trip per key. This is that
 * extension, as small as it can be: {@link #getAll} is one {@code MGET}, {@link #putAll} one
 * {@code MSET}.
 *
 * <p>Both use the keys and bytes the single-key methods use, through {@code RedisCache}'s own
 * {@link #createCacheKey}, {@link #serializeCacheKey} and value serializer: a value that
 * {@code @Cacheable} put ({@code colors::v1::red}) is read by {@code getAll}, and one that
 * {@code putAll} wrote is a hit for {@code @Cacheable}, on the same Redis. Any cache the
 * {@link MultiGetRedisCacheManager} creates is one of these, so a module asks its cache manager
 * for the cache and uses the bulk methods beside the annotations.
 *
 * <p>A single {@code GET} of a key that holds another Redis type fails ({@code WRONGTYPE}), and
 * Spring's error handler decides what that means; {@code MGET} answers nil for it, as for a key
 * that is not there. So that such a key is not taken for a miss, {@code getAll} asks one
 * {@code EXISTS} of the keys it found empty (and a {@code TYPE} of each only when one of them
 * exists), and reports those keys as {@linkplain Found#unreadable() unreadable}, beside values the
 * serializer cannot read. A read with every key present costs the {@code MGET} alone.
 *
 * <p>What the bulk methods leave out: cache statistics are not counted, a locking cache writer's
 * lock is not waited for, time-to-idle is not refreshed ({@code MGET} has no {@code GETEX} form),
 * and entries with a time to live are written one {@code SET} each by {@link #put}, since
 * {@code MSET} cannot set one.
 */
public class MultiGetRedisCache extends RedisCache {

    public MultiGetRedisCache(String name, RedisCacheWriter cacheWriter, RedisCacheConfiguration cacheConfiguration) {
        super(name, cacheWriter, cacheConfiguration);
    }

    /**
     * What {@link #getAll} found.
     *
     * @param values for each key asked, in order: the cached value, or null where the key held
     * nothing this cache can read (missing, unreadable, or another Redis type)
     * @param unreadable the keys whose value is there but could not be read: the serializer
     * failed on it, or the key holds another Redis type than a string
     */
    public record Found(List<ValueWrapper> values, Set<Object> unreadable) {
    }

    /**
     * The values cached under {@code keys}, read with one {@code MGET} (plus one {@code EXISTS} when
     * some were empty). Duplicate keys are read, and answered, as often as they are asked for.
     */
    public Found getAll(List<?> keys) {
        if (keys.isEmpty()) {
            return new Found(List.of(), Set.of());
        }
        byte[][] binaryKeys = new byte[keys.size()][];
        for (int i = 0; i < keys.size(); i++) {
            binaryKeys[i] = serializeCacheKey(createCacheKey(keys.get(i)));
        }
        List<byte[]> stored = getCacheWriter().execute(connection -> connection.stringCommands().mGet(binaryKeys));
        List<ValueWrapper> values = new ArrayList<>(keys.size());
        Set<Object> unreadable = new LinkedHashSet<>();
        List<Integer> empty = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            byte[] value = (stored == null) ? null : stored.get(i);
            ValueWrapper found = null;
            if (value == null) {
                empty.add(i);
            }
            else {
                try {
                    found = toValueWrapper(deserializeCacheValue(value));
                }
                catch (RuntimeException ex) {
                    unreadable.add(keys.get(i));
                }
            }
            values.add(found);
        }
        if (!empty.isEmpty()) {
            unreadable.addAll(keysOfAnotherType(keys, binaryKeys, empty));
        }
        return new Found(Collections.unmodifiableList(values), Collections.unmodifiableSet(unreadable));
    }

    /** Of the keys {@code MGET} answered nil for, those that hold another type than a string. */
    private List<Object> keysOfAnotherType(List<?> keys, byte[][] binaryKeys, List<Integer> empty) {
        byte[][] emptyKeys = empty.stream().map(i -> binaryKeys[i]).toArray(byte[][]::new);
        Long existing = getCacheWriter().execute(connection -> connection.keyCommands().exists(emptyKeys));
        if (existing == null || existing == 0) {
            return List.of();
        }
        List<Object> otherType = new ArrayList<>();
        for (int i : empty) {
            DataType type = getCacheWriter().execute(connection -> connection.keyCommands().type(binaryKeys[i]));
            if (type != null && type != DataType.NONE) {
                otherType.add(keys.get(i));
            }
        }
        return otherType;
    }

    /**
     * Writes every entry with one {@code MSET}, each key and value exactly as {@link #put} would
     * write it; a null value is refused as {@code put} refuses it when null values are not cached.
     * Entries with a time to live are written one {@code put} each instead.
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
