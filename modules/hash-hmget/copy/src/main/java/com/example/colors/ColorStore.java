package com.example.colors;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.HashOperations;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The pattern: the palette is one hash, colors::v5, with a field per color, and one GET /colors is 1 HMGET of its 148
 * fields, one command and one round trip. A color that is missing (Redis restarted empty) or unreadable is answered
 * from the {@link ColorSource} and written back with 1 HSET of just those fields, so that a read never serves a
 * partial list; a colors::v5 of another type is deleted and written whole.
 */
@Component
class ColorStore {

    private static final Logger log = LoggerFactory.getLogger(ColorStore.class);

    private static final String KEY = "colors::v5";

    private final RedisTemplate<String, byte[]> template;

    private final HashOperations<String, String, byte[]> hash;

    private final JsonMapper mapper;

    private final ColorSource source;

    private final List<String> names;

    ColorStore(RedisTemplate<String, byte[]> colorTemplate, JsonMapper mapper, ColorSource source) {
        this.template = colorTemplate;
        this.hash = colorTemplate.opsForHash();
        this.mapper = mapper;
        this.source = source;
        this.names = source.names();
    }

    List<Color> findAll() {
        List<byte[]> found;
        try {
            found = hash.multiGet(KEY, names);
        }
        catch (DataAccessException ex) {
            if (!isWrongType(ex)) {
                throw ex;
            }
            return replaceKeyOfAnotherType();
        }
        List<Color> colors = new ArrayList<>(names.size());
        List<Color> writeBack = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            Color color = decode(names.get(i), found.get(i));
            if (color == null) {
                color = source.find(names.get(i));
                writeBack.add(color);
            }
            colors.add(color);
        }
        if (!writeBack.isEmpty()) {
            writeBack(writeBack);
        }
        return colors;
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
            log.warn("Unreadable value at {} field {}, written again: {}", KEY, name, ex.getOriginalMessage());
            return null;
        }
    }

    /** colors::v5 is not a hash (HMGET answered WRONGTYPE): no field of it can be read or written, so it is written whole. */
    private List<Color> replaceKeyOfAnotherType() {
        log.warn("{} is not a hash, written again whole", KEY);
        template.delete(KEY);
        List<Color> colors = names.stream().map(source::find).toList();
        writeBack(colors);
        return colors;
    }

    /**
     * HSET colors::v5 &lt;name&gt; &lt;json&gt; ...: one command however many fields (Spring Data's {@code putAll} sends
     * the deprecated HMSET). A write Redis refuses (memory full) leaves the answer standing; the next read tries again.
     */
    private void writeBack(List<Color> colors) {
        List<byte[]> arguments = new ArrayList<>(1 + 2 * colors.size());
        arguments.add(KEY.getBytes(StandardCharsets.UTF_8));
        for (Color color : colors) {
            arguments.add(color.name().getBytes(StandardCharsets.UTF_8));
            arguments.add(mapper.writeValueAsBytes(color));
        }
        try {
            template.execute((RedisCallback<Object>) connection -> connection.execute("HSET", arguments.toArray(byte[][]::new)));
        }
        catch (DataAccessException ex) {
            log.warn("Could not write {} colors back to Redis: {}", colors.size(), ex.getMessage());
        }
    }

    /** Whether Redis answered WRONGTYPE: the key holds another type, which is bad data, not an unavailable Redis. */
    private static boolean isWrongType(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause.getMessage() != null && cause.getMessage().startsWith("WRONGTYPE")) {
                return true;
            }
        }
        return false;
    }
}
