package com.example.colors;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.ValueOperations;
import org.springframework.stereotype.Component;

/**
 * The pattern: one GET /colors is 1 MGET of the 148 keys colors::v3::&lt;name&gt;, one command and one round trip. A
 * color that is missing (Redis restarted empty) or unreadable is answered from the {@link ColorSource} and written
 * back with 1 MSET of just those keys, so that a read never serves a partial list.
 */
@Component
class ColorStore {

    private static final Logger log = LoggerFactory.getLogger(ColorStore.class);

    private final ValueOperations<String, byte[]> values;

    private final JsonMapper mapper;

    private final ColorSource source;

    private final List<String> names;

    private final List<String> keys;

    ColorStore(RedisTemplate<String, byte[]> colorTemplate, JsonMapper mapper, ColorSource source) {
        this.values = colorTemplate.opsForValue();
        this.mapper = mapper;
        this.source = source;
        this.names = source.names();
        this.keys = names.stream().map(name -> "colors::v3::" + name).toList();
    }

    List<Color> findAll() {
        List<byte[]> found = values.multiGet(keys);
        List<Color> colors = new ArrayList<>(names.size());
        Map<String, byte[]> writeBack = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            Color color = decode(names.get(i), found.get(i));
            if (color == null) {
                color = source.find(names.get(i));
                writeBack.put(keys.get(i), mapper.writeValueAsBytes(color));
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
            log.warn("Unreadable value for color {} in Redis, written again: {}", name, ex.getOriginalMessage());
            return null;
        }
    }

    /** A write Redis refuses (memory full) leaves the answer standing; the next read tries again. */
    private void writeBack(Map<String, byte[]> colors) {
        try {
            values.multiSet(colors);
        }
        catch (DataAccessException ex) {
            log.warn("Could not write {} colors back to Redis: {}", colors.size(), ex.getMessage());
        }
    }
}
