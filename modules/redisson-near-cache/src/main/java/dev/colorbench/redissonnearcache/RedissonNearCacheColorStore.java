package dev.colorbench.redissonnearcache;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

import dev.colorbench.core.ColorSeeder;
import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.EncodedColors;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorCodec;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.core.redis.JsonKeyHealing;
import dev.colorbench.core.redis.JsonKeys;
import dev.colorbench.core.web.EncodedColorStore;
import org.redisson.api.RBucket;
import org.redisson.api.RClientSideCaching;
import org.redisson.api.RFuture;
import org.redisson.api.RedissonClient;
import org.redisson.api.options.ClientSideCachingOptions;
import org.redisson.client.RedisException;
import org.redisson.client.codec.ByteArrayCodec;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The contract answered through Redisson's client-side caching ({@link RClientSideCaching}), the library's
 * near cache, in front of the same {@code colors::v3::<name>} JSON strings the hand-made near-cache and
 * template-mget read. One {@link RBucket} per color, read with {@link ByteArrayCodec} so that the stored
 * bytes arrive as they are; Redisson keeps each read's result and drops it when Redis reports a write to its
 * key. Everything about freshness is the library's: this class adds no copy, no invalidation and no check
 * of its own, only the contract's decoding, healing and 503s.
 *
 * <p>What one request costs in Redis:
 * <ul>
 * <li><b>warm</b> (Redisson holds the read of every color asked for): <b>no command, no round trip</b>, for
 * {@code GET /colors}, a subset and one color alike;</li>
 * <li><b>cold</b> (nothing read yet, or colors whose keys were written since): <b>1 GET per missing color</b>:
 * Redisson caches single-key reads only (its {@code RClientSideCaching} offers buckets, not {@code RBuckets}),
 * so the first {@code GET /colors} is 148 GETs; they are started together on Redisson's one tracked
 * connection and joined, so they share round trips (counted in the README). After another writer changed one
 * color, 1 GET of that key;</li>
 * <li><b>once, when the cache is created</b> (the first read): Redisson's {@code CLIENT ID} on its
 * subscription connection and {@code CLIENT TRACKING ON REDIRECT <id>} on its tracked connection, with a
 * {@code SUBSCRIBE __redis__:invalidate};</li>
 * <li>Redisson's {@code PING} every {@value RedissonSettings#PING_MILLIS} ms on each of its connections,
 * whatever the load ({@link RedissonSettings}).</li>
 * </ul>
 * Concurrent requests that miss the same color share one GET: Redisson caches the read's future itself.
 *
 * <p>The answer is never partial: what a read returns is decoded and checked by the core's
 * {@link ColorCodec}, as in every module; a missing key, an unreadable value and a key of another type (a
 * {@code WRONGTYPE} error for GET) are answered from the palette and written back by the core's
 * {@link JsonKeyHealing} over the application's Lettuce connection (<b>+1 EXISTS</b> of the empty keys,
 * <b>+1 TYPE</b> each if any is there, <b>+1 MSET</b> of just those keys). That write invalidates what
 * Redisson kept for those keys, so the next request reads them again. A failure to reach Redis, from Redisson,
 * is the core's 503.
 *
 * <p>So that a warm request does no JSON work (the library hands back the same stored bytes as long as it
 * keeps a read), each color's decoded and checked JSON is remembered against the very array Redisson
 * returned, and the joined palette against the 148 of them: a new read, a new array, decoded again. Neither
 * memo can outlive what Redisson holds.
 *
 * <p>Seeding is 1 MSET of all keys, over Lettuce.
 */
@Component
class RedissonNearCacheColorStore implements EncodedColorStore, ColorSeeder {

    private static final Logger log = LoggerFactory.getLogger(RedissonNearCacheColorStore.class);

    private final RedissonClient redisson;

    private final RedisTemplate<String, byte[]> template;

    private final ColorCodec codec;

    /** The codec's JSON of each palette color: the answer for a missing or unreadable value. */
    private final Map<String, byte[]> fromPalette = new HashMap<>();

    /** Redisson's cache and a bucket per color, created on the first read that reaches Redis. */
    private volatile Buckets buckets;

    /** Each color's checked JSON, against the stored bytes it was decoded from (by identity). */
    private final Map<String, Decoded> decoded = new ConcurrentHashMap<>();

    /** The joined palette, against the stored bytes of its colors (by identity). */
    private volatile Joined joined;

    RedissonNearCacheColorStore(RedissonClient redisson, RedisTemplate<String, byte[]> colorTemplate, ColorCodec codec) {
        this.redisson = redisson;
        this.template = colorTemplate;
        this.codec = codec;
        Palette.all().forEach(color -> fromPalette.put(color.name(), codec.encode(color)));
    }

    private record Buckets(RClientSideCaching caching, Map<String, RBucket<byte[]>> byName) {
    }

    private record Decoded(byte[] stored, byte[] json) {
    }

    private record Joined(byte[][] stored, byte[] array) {
    }

    /** What Redisson returned for each name asked for, and the JSON to answer with. */
    private record Read(byte[][] stored, List<byte[]> colors, boolean asStored) {
    }

    @Override
    public byte[] findAll() {
        Read read = read(Palette.names());
        if (!read.asStored()) {
            return EncodedColors.array(read.colors());
        }
        Joined kept = joined;
        if (kept != null && sameArrays(kept.stored(), read.stored())) {
            return kept.array();
        }
        byte[] array = EncodedColors.array(read.colors());
        joined = new Joined(read.stored(), array);
        return array;
    }

    @Override
    public byte[] findByNames(List<String> names) {
        return EncodedColors.array(read(names).colors());
    }

    @Override
    public byte[] findOne(String name) {
        return read(List.of(name)).colors().get(0);
    }

    private Read read(List<String> names) {
        Map<String, RBucket<byte[]>> byName = buckets().byName();
        List<RFuture<byte[]>> futures = new ArrayList<>(names.size());
        try {
            for (String name : names) {
                futures.add(byName.get(name).getAsync());
            }
        }
        catch (RuntimeException ex) {
            throw unavailable(ex);
        }
        byte[][] stored = new byte[names.size()][];
        List<byte[]> colors = new ArrayList<>(names.size());
        // each name once, though a request may ask for one twice
        Set<String> missing = new LinkedHashSet<>();
        Set<String> unreadable = new LinkedHashSet<>();
        for (int i = 0; i < stored.length; i++) {
            String name = names.get(i);
            stored[i] = value(futures.get(i));
            byte[] json = (stored[i] == null) ? null : json(name, stored[i]);
            if (json == null) {
                if (stored[i] == null) {
                    missing.add(name);
                }
                else {
                    unreadable.add(name);
                }
                json = fromPalette.get(name);
            }
            colors.add(json);
        }
        if (!missing.isEmpty() || !unreadable.isEmpty()) {
            JsonKeyHealing.writeBack(template, codec, JsonKeys.plain(), List.copyOf(missing), List.copyOf(unreadable));
            return new Read(stored, colors, false);
        }
        return new Read(stored, colors, true);
    }

    /** What the read found: the stored bytes, or null for a missing key or one of another type (GET's WRONGTYPE). */
    private static byte[] value(RFuture<byte[]> future) {
        try {
            return future.toCompletableFuture().join();
        }
        catch (CompletionException ex) {
            Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
            if (cause instanceof RedisException && cause.getMessage() != null && cause.getMessage().startsWith("WRONGTYPE")) {
                return null;
            }
            throw unavailable(cause);
        }
        catch (RuntimeException ex) {
            throw unavailable(ex);
        }
    }

    /** The checked JSON of {@code stored} for {@code name}, or null when it is not a readable color. */
    private byte[] json(String name, byte[] stored) {
        Decoded known = decoded.get(name);
        if (known != null && known.stored() == stored) {
            return known.json();
        }
        Optional<Color> color = codec.decode(name, stored);
        if (color.isEmpty()) {
            return null;
        }
        byte[] json = Arrays.equals(stored, fromPalette.get(name)) ? fromPalette.get(name) : codec.encode(color.get());
        decoded.put(name, new Decoded(stored, json));
        return json;
    }

    private Buckets buckets() {
        Buckets current = buckets;
        if (current != null) {
            return current;
        }
        synchronized (this) {
            if (buckets == null) {
                RClientSideCaching caching;
                try {
                    caching = redisson.getClientSideCaching(ClientSideCachingOptions.defaults()
                            .evictionPolicy(ClientSideCachingOptions.EvictionPolicy.NONE));
                }
                catch (RuntimeException ex) {
                    throw unavailable(ex);
                }
                Map<String, RBucket<byte[]>> byName = new HashMap<>();
                Palette.names().forEach(name -> byName.put(name, caching.getBucket(ColorKeys.jsonKey(name), ByteArrayCodec.INSTANCE)));
                buckets = new Buckets(caching, Map.copyOf(byName));
            }
            return buckets;
        }
    }

    /** A failure of Redisson to reach Redis (or of the network under it) as the core's 503; anything else as it is. */
    private static RuntimeException unavailable(Throwable error) {
        log.debug("Redisson failed", error);
        for (Throwable t = error; t != null; t = (t.getCause() == t) ? null : t.getCause()) {
            if (t instanceof RedisException || t instanceof IOException || t.getClass().getName().startsWith("io.netty.")) {
                return new RedisConnectionFailureException("Redis unavailable (Redisson)", error);
            }
        }
        return (error instanceof RuntimeException runtime) ? runtime : new IllegalStateException(error);
    }

    private static boolean sameArrays(byte[][] kept, byte[][] read) {
        if (kept.length != read.length) {
            return false;
        }
        for (int i = 0; i < kept.length; i++) {
            if (kept[i] != read[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The future of the read Redisson holds for {@code name}: the same object for as long as it keeps that read,
     * a new one (and a GET) once an invalidation made it drop it. For tests that must wait for an invalidation.
     */
    RFuture<byte[]> heldRead(String name) {
        return buckets().byName().get(name).getAsync();
    }

    /** Writes every key; a refused write fails the seeding, which start-up logs and a read repeats. */
    @Override
    public void seed() {
        template.opsForValue().multiSet(codec.encodeAll(Palette.all(), ColorKeys::jsonKey));
    }
}
