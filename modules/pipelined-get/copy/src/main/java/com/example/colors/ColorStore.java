package com.example.colors;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisPipelineException;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The pattern: one GET /colors is 148 GETs of the keys colors::v3::&lt;name&gt;, sent in one pipeline on a pooled
 * connection and flushed once: 148 commands in one round trip. Redis still runs 148 commands and the client keeps 148
 * replies apart, which one MGET does as one. A color that is missing (Redis restarted empty) or unreadable is answered
 * from the {@link ColorSource} and written back with 1 MSET of just those keys, so that a read never serves a partial
 * list.
 */
@Component
class ColorStore {

    private static final Logger log = LoggerFactory.getLogger(ColorStore.class);

    /** More colors are read in pipelines of this many GETs, one after another: each pipeline's replies all arrive within the 500 ms time-out. */
    private static final int KEYS_PER_PIPELINE = 1_000;

    private final RedisTemplate<String, byte[]> template;

    private final JsonMapper mapper;

    private final ColorSource source;

    private final List<String> names;

    /** Each color's key, encoded once. */
    private final byte[][] keys;

    ColorStore(RedisTemplate<String, byte[]> colorTemplate, JsonMapper mapper, ColorSource source) {
        this.template = colorTemplate;
        this.mapper = mapper;
        this.source = source;
        this.names = source.names();
        this.keys = names.stream().map(name -> ("colors::v3::" + name).getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);
    }

    List<Color> findAll() {
        List<?> found = getAll();
        List<Color> colors = new ArrayList<>(names.size());
        Map<String, byte[]> writeBack = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            Color color = decode(names.get(i), (byte[]) found.get(i));
            if (color == null) {
                color = source.find(names.get(i));
                writeBack.put("colors::v3::" + names.get(i), mapper.writeValueAsBytes(color));
            }
            colors.add(color);
        }
        if (!writeBack.isEmpty()) {
            writeBack(writeBack);
        }
        return colors;
    }

    /**
     * The value of every key, in order. A GET of a key holding another type fails the whole pipeline, replies and all,
     * without naming the key: then 1 MGET of the same keys reads past it, answering nil for it, which is healed as a
     * missing key. A user may leave that out if nothing else writes these keys; without it, such a key is a 503 on
     * every read until someone deletes it.
     */
    private List<?> getAll() {
        try {
            List<Object> values = new ArrayList<>(keys.length);
            for (int from = 0; from < keys.length; from += KEYS_PER_PIPELINE) {
                int start = from;
                int end = Math.min(keys.length, from + KEYS_PER_PIPELINE);
                values.addAll(template.executePipelined((RedisCallback<Object>) connection -> {
                    for (int i = start; i < end; i++) {
                        connection.stringCommands().get(keys[i]);
                    }
                    return null;
                }));
            }
            return values;
        }
        catch (RedisPipelineException ex) {
            if (!isWrongType(ex)) {
                throw ex;
            }
            return template.execute((RedisCallback<List<byte[]>>) connection -> connection.stringCommands().mGet(keys));
        }
    }

    /** Whether Redis refused a command for a key of another type (bad data), not because it is away or stalled. */
    private static boolean isWrongType(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause.getMessage() != null && cause.getMessage().startsWith("WRONGTYPE")) {
                return true;
            }
        }
        return false;
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
            template.opsForValue().multiSet(colors);
        }
        catch (DataAccessException ex) {
            log.warn("Could not write {} colors back to Redis: {}", colors.size(), ex.getMessage());
        }
    }
}
