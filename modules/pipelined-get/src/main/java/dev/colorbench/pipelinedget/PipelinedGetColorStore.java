package dev.colorbench.pipelinedget;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.colorbench.core.ColorSeeder;
import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorCodec;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.core.redis.Healing;
import dev.colorbench.core.redis.JsonKeyHealing;
import dev.colorbench.core.redis.JsonKeys;
import dev.colorbench.core.redis.RedisReplies;
import dev.colorbench.core.redis.StoredColors;
import dev.colorbench.core.web.ColorStore;

import org.springframework.data.redis.connection.DataType;
import org.springframework.data.redis.connection.RedisPipelineException;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code RedisTemplate.executePipelined} of one GET per color. One {@code GET /colors} costs
 * <b>148 GET</b> of the {@code colors::v3::<name>} keys, sent together and answered together:
 * <b>1 round trip</b>, where cacheable-loop pays 148 for the same 148 GETs. Redis still parses and
 * executes 148 commands and writes 148 replies, which one MGET does as one. A subset costs one
 * GET per name asked for, in one round trip. A palette of more than 1,000 colors (the benchmark's
 * keys scenario) is read in pipelines of 1,000, one after another: one round trip per 1,000 keys.
 *
 * <p>How it gets to one round trip, and why each part is needed:
 * <ul>
 * <li>A pipeline runs on a connection of its own: Lettuce turns off auto-flush while the pipeline
 * is open, which it cannot do on the connection every thread shares. Without a pool, Spring Data
 * opens that connection for each pipeline and closes it after, so every request would also pay a
 * TCP connect, a HELLO and three CLIENT commands (measured; the contract test's exact count shows them).
 * Here the connections come from a commons-pool2 pool ({@code application.yml}: 16 connections
 * at most, kept when idle, a 200 ms wait for a free one before a 503), created once and reused;
 * every other command (healing, seeding, health) still goes over the shared connection.</li>
 * <li>The pipeline is flushed once, on close ({@link PipelinedGetApplication#flushPipelinesOnClose}),
 * so the 148 GETs leave in one write and Redis reads them in one read. Spring Data's default
 * flushes each command as it is issued.</li>
 * </ul>
 * The other way to pipeline without a pool, Lettuce's own {@code dispatch} of a batch of commands
 * on the shared connection, is left out: it is not {@code executePipelined}, the pattern measured here.
 *
 * <p>Seeding is 1 MSET of all keys. A read never serves a partial list: each value is decoded by
 * the core's {@link ColorCodec} against its own key; a missing or unreadable one is answered from
 * the palette and written back with <b>1 MSET of just those keys</b>. A GET of a key holding another
 * type fails ({@code WRONGTYPE}), and with it, in Spring Data, the whole pipeline, replies and all;
 * then the read starts again the way template-mget reads: <b>1 MGET</b> of the same keys, <b>1
 * EXISTS</b> of those it found empty and <b>1 TYPE per empty key</b> if any is there, to name it in
 * the warning, before the same MSET overwrites it. A write Redis refuses (memory full) is logged and the palette's
 * answer stands.
 *
 * <p><b>On a Redis Cluster</b> the pipeline works unchanged: Spring Data Redis's Lettuce cluster connection
 * pipelines too, each GET going to the connection of the master that holds its key, all flushed on close.
 * Measured: <b>148 GETs in 3 round trips</b>, one per master, the pipeline split three ways. The pool then
 * holds cluster connections (each with a connection per master, opened when first needed).
 */
@Component
class PipelinedGetColorStore implements ColorStore, ColorSeeder {

    /**
     * A larger palette is read in pipelines of this many GETs, one after another: Spring Data waits
     * for all of a pipeline's replies together, at most the command timeout (500 ms), and under load one
     * pipeline of 10,000 GETs can take longer (the benchmark's keys scenario, docs/scenarios.md#the-number-of-keys),
     * where each of ten pipelines of 1,000 has the whole timeout for a tenth of the replies.
     */
    static final int KEYS_PER_PIPELINE = 1_000;

    private static final byte[][] ALL_KEYS = keys(Palette.names());

    private final RedisTemplate<String, byte[]> template;

    private final ColorCodec codec;

    PipelinedGetColorStore(RedisTemplate<String, byte[]> colorTemplate, ColorCodec codec) {
        this.template = colorTemplate;
        this.codec = codec;
    }

    @Override
    public List<Color> findAll() {
        return read(Palette.names(), ALL_KEYS);
    }

    @Override
    public List<Color> findByNames(List<String> names) {
        return read(names, keys(names));
    }

    private List<Color> read(List<String> names, byte[][] keys) {
        List<Object> values;
        try {
            values = getAll(keys);
        }
        catch (RedisPipelineException ex) {
            if (!RedisReplies.isWrongType(ex)) {
                throw ex;
            }
            return readPastKeysOfAnotherType(names);
        }
        StoredColors stored = codec.decodeAll(names, values);
        if (!stored.complete()) {
            heal(stored, List.of());
        }
        return stored.colors();
    }

    /** The value of every key, in order: one pipeline of GETs per {@link #KEYS_PER_PIPELINE} keys, one after another. */
    List<Object> getAll(byte[][] keys) {
        if (keys.length <= KEYS_PER_PIPELINE) {
            return getPipelined(keys, 0, keys.length);
        }
        List<Object> values = new ArrayList<>(keys.length);
        for (int from = 0; from < keys.length; from += KEYS_PER_PIPELINE) {
            values.addAll(getPipelined(keys, from, Math.min(keys.length, from + KEYS_PER_PIPELINE)));
        }
        return values;
    }

    private List<Object> getPipelined(byte[][] keys, int from, int to) {
        return template.executePipelined((RedisCallback<Object>) connection -> {
            for (int i = from; i < to; i++) {
                connection.stringCommands().get(keys[i]);
            }
            return null;
        });
    }

    /**
     * The slow path, after a GET in the pipeline met a key of another type: Spring Data then fails
     * the whole pipeline without the other replies, and without saying which key it was. One MGET
     * of the same keys reads the rest (it answers nil for a key of another type instead of failing),
     * 1 EXISTS of the keys it found empty tells whether any is there at all, and 1 TYPE per such
     * key names the ones to warn about.
     */
    private List<Color> readPastKeysOfAnotherType(List<String> names) {
        StoredColors stored = codec.decodeAll(names, template.opsForValue().multiGet(JsonKeys.plain().forNames(names)));
        List<String> missingKeys = JsonKeys.plain().forNames(stored.missing());
        List<String> wrongType = missingKeys.isEmpty() || template.countExistingKeys(missingKeys) == 0 ? List.of()
                : stored.missing().stream().filter(name -> template.type(ColorKeys.jsonKey(name)) != DataType.NONE).toList();
        if (!stored.complete()) {
            heal(stored, wrongType);
        }
        return stored.colors();
    }

    private void heal(StoredColors stored, List<String> wrongType) {
        Healing.report(stored, wrongType, ColorKeys::jsonKey);
        JsonKeyHealing.write(template, codec, JsonKeys.plain(), stored.toWrite());
    }

    /** Writes every key; a refused write fails the seeding, which start-up logs and a read repeats. */
    @Override
    public void seed() {
        template.opsForValue().multiSet(codec.encodeAll(Palette.all(), ColorKeys::jsonKey));
    }

    private static byte[][] keys(List<String> names) {
        byte[][] keys = new byte[names.size()][];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = ColorKeys.jsonKey(names.get(i)).getBytes(StandardCharsets.UTF_8);
        }
        return keys;
    }
}
