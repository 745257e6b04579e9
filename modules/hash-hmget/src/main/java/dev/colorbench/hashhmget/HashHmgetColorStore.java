package dev.colorbench.hashhmget;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.colorbench.core.ColorSeeder;
import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorCodec;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.core.redis.Healing;
import dev.colorbench.core.redis.RedisReplies;
import dev.colorbench.core.redis.StoredColors;
import dev.colorbench.core.web.ColorStore;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.HashOperations;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The whole palette in one Redis hash, {@code colors::v5}: field {@code <name>}, value the same
 * JSON as template-mget's {@code colors::v3::<name>} strings (the core's {@link ColorCodec}), read
 * with {@code opsForHash().multiGet}. One {@code GET /colors} costs <b>1 HMGET</b> of the 148
 * fields: one command and one round trip, like template-mget's MGET, and decoded the same way, so
 * that the two compare the structure (148 string keys against one hash of 148 fields) and nothing
 * else. A subset costs 1 HMGET of just those fields.
 *
 * <p>Seeding is <b>1 HSET</b> of all 148 fields (idempotent: it sets the same values again). It is
 * sent as HSET with many field-value pairs, which Redis has taken since 4.0; Spring Data's
 * {@code putAll} would send the deprecated HMSET.
 *
 * <p>A read never serves a partial list. Each value is decoded against its own field; a missing or
 * unreadable one is answered from the palette and written back with <b>1 HSET of just those
 * fields</b> (a hash gone altogether, as when Redis restarted empty, is all of them): one warning
 * naming the key and field of each unreadable value, an info line for missing ones. If
 * {@code colors::v5} holds another type, HMGET fails ({@code WRONGTYPE}): the key is replaced
 * whole, <b>1 DEL and 1 HSET</b> of all fields, with one warning naming it, and the read answered
 * from the palette. A write Redis refuses (memory full) is logged and the palette's answer stands.
 */
@Component
class HashHmgetColorStore implements ColorStore, ColorSeeder {

    private static final String KEY = ColorKeys.PALETTE_HASH;

    private final RedisTemplate<String, byte[]> template;

    private final HashOperations<String, String, byte[]> hash;

    private final ColorCodec codec;

    HashHmgetColorStore(RedisTemplate<String, byte[]> colorTemplate, ColorCodec codec) {
        this.template = colorTemplate;
        this.hash = colorTemplate.opsForHash();
        this.codec = codec;
    }

    @Override
    public List<Color> findAll() {
        return read(Palette.names());
    }

    @Override
    public List<Color> findByNames(List<String> names) {
        return read(names);
    }

    private List<Color> read(List<String> names) {
        List<byte[]> values;
        try {
            values = hash.multiGet(KEY, names);
        }
        catch (DataAccessException ex) {
            if (!RedisReplies.isWrongType(ex)) {
                throw ex;
            }
            return replaceKeyOfAnotherType(names);
        }
        StoredColors stored = codec.decodeAll(names, values);
        if (!stored.complete()) {
            stored.unreadable().forEach(name -> Healing.unreadableField(KEY, name));
            Healing.missingFields(KEY, stored.missing());
            write(Palette.colors(stored.toWrite()));
        }
        return stored.colors();
    }

    /** {@code colors::v5} is not a hash: no field of it can be read or written, so it is deleted and written whole. */
    private List<Color> replaceKeyOfAnotherType(List<String> names) {
        Healing.unreadable(KEY);
        template.delete(KEY);
        write(Palette.all());
        return Palette.colors(names);
    }

    /** One HSET of these colors' fields; a write Redis refuses leaves the read answered from the palette. */
    private void write(List<Color> colors) {
        try {
            hset(colors);
        }
        catch (DataAccessException ex) {
            if (!RedisReplies.isRefusedWrite(ex)) {
                throw ex;
            }
            Healing.writeRefused(colors.size(), ex);
        }
    }

    /** Writes every field; a refused write fails the seeding, which start-up logs and a read repeats. */
    @Override
    public void seed() {
        hset(Palette.all());
    }

    /** {@code HSET colors::v5 <name> <json> <name> <json> ...}: one command however many fields. */
    private void hset(List<Color> colors) {
        List<byte[]> arguments = new ArrayList<>(1 + 2 * colors.size());
        arguments.add(KEY.getBytes(StandardCharsets.UTF_8));
        for (Color color : colors) {
            arguments.add(color.name().getBytes(StandardCharsets.UTF_8));
            arguments.add(codec.encode(color));
        }
        template.execute((RedisCallback<Object>) connection -> connection.execute("HSET", arguments.toArray(byte[][]::new)));
    }
}
