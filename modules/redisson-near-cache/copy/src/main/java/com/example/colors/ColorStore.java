package com.example.colors;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.redisson.api.RBucket;
import org.redisson.api.RClientSideCaching;
import org.redisson.api.RFuture;
import org.redisson.api.RedissonClient;
import org.redisson.api.options.ClientSideCachingOptions;
import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisException;
import org.redisson.client.codec.ByteArrayCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.stereotype.Component;

/**
 * The pattern: Redisson's client-side cache in front of the keys colors::v3::&lt;name&gt;, one RBucket per color. Redisson
 * keeps each GET's reply until Redis reports a write to its key, so a warm GET /colors sends no command and makes no
 * round trip; a cold one is 1 GET per color it does not hold, all started together on Redisson's one tracked
 * connection, so that they share round trips. The JSON answered is remembered against the very arrays Redisson
 * returned, so a warm request does no JSON work either; a new read is a new array, and decoded again.
 *
 * <p>A color that is missing, unreadable or under a key of another type is answered from the {@link ColorSource} and
 * written back with 1 MSET of just those keys; that write invalidates them, so the next request reads them again.
 *
 * <p>Redisson keeps answering from its cache after Redis has stopped, and keeps a failed read for good. So the store asks
 * {@link RedisConnectionState} first, a 503 while Redis is away, and starts a new cache after a read fails. Neither
 * clears what Redisson still holds after it reconnected: those values can stay stale for good (the README's known
 * stale cases).
 */
@Component
class ColorStore {

    private static final Logger log = LoggerFactory.getLogger(ColorStore.class);

    private final RedissonClient redisson;

    private final RedisConnectionState connection;

    private final JsonMapper mapper;

    private final ColorSource source;

    private final List<String> names;

    /** Redisson's cache and its bucket of each color, created by the first read, so the application starts without Redis. */
    private volatile Cache cache;

    /** The last answer read whole from Redis, and the arrays it was decoded from. */
    private volatile Answer answer;

    private record Cache(RClientSideCaching caching, Map<String, RBucket<byte[]>> buckets) {
    }

    private record Answer(byte[][] stored, byte[] json) {
    }

    ColorStore(RedissonClient redisson, RedisConnectionState connection, JsonMapper mapper, ColorSource source) {
        this.redisson = redisson;
        this.connection = connection;
        this.mapper = mapper;
        this.source = source;
        this.names = source.names();
    }

    byte[] findAll() {
        if (connection.isLost()) {
            throw new RedisConnectionException("Redisson lost its connection to Redis");
        }
        Cache current = cache();
        List<RFuture<byte[]>> reads = new ArrayList<>(names.size());
        byte[][] stored = new byte[names.size()][];
        try {
            for (String name : names) {
                reads.add(current.buckets().get(name).getAsync());
            }
            for (int i = 0; i < stored.length; i++) {
                stored[i] = value(reads.get(i));
            }
        }
        catch (RedisException ex) {
            drop(current);
            throw ex;
        }
        Answer kept = answer;
        if (kept != null && sameArrays(kept.stored(), stored)) {
            return kept.json();
        }

        ByteArrayOutputStream json = new ByteArrayOutputStream(stored.length * 80);
        Map<String, byte[]> writeBack = new LinkedHashMap<>();
        for (int i = 0; i < stored.length; i++) {
            Color color = decode(names.get(i), stored[i]);
            if (color == null) {
                color = source.find(names.get(i));
                writeBack.put(key(names.get(i)), mapper.writeValueAsBytes(color));
            }
            json.write(i == 0 ? '[' : ',');
            json.writeBytes(mapper.writeValueAsBytes(color));
        }
        json.write(']');
        if (writeBack.isEmpty()) {
            answer = new Answer(stored, json.toByteArray());
            return answer.json();
        }
        writeBack(writeBack);
        return json.toByteArray();
    }

    private Cache cache() {
        Cache current = cache;
        if (current != null) {
            return current;
        }
        synchronized (this) {
            if (cache == null) {
                RClientSideCaching caching = redisson.getClientSideCaching(ClientSideCachingOptions.defaults()
                        .evictionPolicy(ClientSideCachingOptions.EvictionPolicy.NONE));
                Map<String, RBucket<byte[]>> buckets = new HashMap<>();
                names.forEach(name -> buckets.put(name, caching.getBucket(key(name), ByteArrayCodec.INSTANCE)));
                cache = new Cache(caching, Map.copyOf(buckets));
            }
            return cache;
        }
    }

    /**
     * Redisson keeps a failed read as it keeps any other, and would answer that failure for good: the next read starts a
     * new cache. Destroying the old one waits for Redis, which may be away, so it is not the request's wait.
     */
    private synchronized void drop(Cache failed) {
        if (cache == failed) {
            cache = null;
            CompletableFuture.runAsync(failed.caching()::destroy);
        }
    }

    /** The bytes Redis holds for one key, or null when it holds none, or a key of another type (GET's WRONGTYPE). */
    private static byte[] value(RFuture<byte[]> read) {
        try {
            return read.toCompletableFuture().join();
        }
        catch (CompletionException ex) {
            if (ex.getCause() instanceof RedisException error) {
                if (error.getMessage() != null && error.getMessage().startsWith("WRONGTYPE")) {
                    return null;
                }
                throw error;
            }
            throw ex;
        }
    }

    /** The color Redis holds for {@code name}, or null when it holds none, or something that is not that color. */
    private Color decode(String name, byte[] json) {
        if (json == null) {
            return null;
        }
        try {
            Color color = mapper.readValue(json, Color.class);
            return name.equals(color.name()) ? color : null;
        }
        catch (JacksonException ex) {
            log.warn("Unreadable value for color {} in Redis, written again: {}", name, ex.getOriginalMessage());
            return null;
        }
    }

    /** A write Redis refuses (memory full) leaves the answer standing; the next read tries again. */
    private void writeBack(Map<String, byte[]> colors) {
        try {
            redisson.getBuckets(ByteArrayCodec.INSTANCE).set(colors);
        }
        catch (RedisException ex) {
            log.warn("Could not write {} colors back to Redis: {}", colors.size(), ex.getMessage());
        }
    }

    private static String key(String name) {
        return "colors::v3::" + name;
    }

    private static boolean sameArrays(byte[][] kept, byte[][] read) {
        for (int i = 0; i < kept.length; i++) {
            if (kept[i] != read[i]) {
                return false;
            }
        }
        return true;
    }
}
