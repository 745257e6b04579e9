package com.example.colors;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.colorbench.redis.nearcache.Derived;
import dev.colorbench.redis.nearcache.NearCache;
import dev.colorbench.redis.nearcache.NearCacheTracking;
import dev.colorbench.redis.nearcache.Values;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.ValueOperations;
import org.springframework.stereotype.Component;

/**
 * The pattern: a near cache of the keys colors::v3::&lt;name&gt;, which Redis invalidates on every write. A warm
 * GET /colors sends Redis nothing and serves the kept JSON array; a cold one is 1 MGET of just the keys not in the copy.
 * A color that is missing or unreadable is answered from the {@link ColorSource} and written back with 1 MSET; the
 * library keeps neither it nor an array joined from it, so the next read reads the rewritten key.
 */
@Component
class ColorStore {

    private static final Logger log = LoggerFactory.getLogger(ColorStore.class);

    private final ValueOperations<String, byte[]> values;

    private final JsonMapper mapper;

    private final ColorSource source;

    private final List<String> names;

    private final List<String> keys;

    private final Map<String, String> nameOfKey = new HashMap<>();

    private final Derived<byte[]> palette;

    ColorStore(RedisTemplate<String, byte[]> colorTemplate, JsonMapper mapper, ColorSource source, NearCacheTracking tracking) {
        this.values = colorTemplate.opsForValue();
        this.mapper = mapper;
        this.source = source;
        this.names = source.names();
        this.keys = names.stream().map(name -> "colors::v3::" + name).toList();
        names.forEach(name -> nameOfKey.put("colors::v3::" + name, name));
        // on a miss only: what Redis holds, kept as that color's JSON, or null when it is not that color
        NearCache<byte[]> cache = tracking.newCache("colors", this::checked);
        // the whole answer, joined once and kept until any color changes
        this.palette = cache.derive(keys, this::answer);
    }

    byte[] findAll() {
        return palette.get();
    }

    private byte[] checked(String key, byte[] stored) {
        try {
            Color color = mapper.readValue(stored, Color.class);
            return color.name().equals(nameOfKey.get(key)) ? mapper.writeValueAsBytes(color) : null;
        }
        catch (JacksonException ex) {
            log.warn("Unreadable value under {} in Redis, written again: {}", key, ex.getOriginalMessage());
            return null;
        }
    }

    /** The JSON array of every color: what Redis held, or the source's where it held nothing or something else. */
    private byte[] answer(Values<byte[]> read) {
        List<byte[]> colors = read.values();
        if (!read.complete()) {
            colors = new ArrayList<>(colors);
            Map<String, byte[]> writeBack = new LinkedHashMap<>();
            for (int i = 0; i < colors.size(); i++) {
                if (colors.get(i) == null) {
                    byte[] json = mapper.writeValueAsBytes(source.find(names.get(i)));
                    colors.set(i, json);
                    writeBack.put(keys.get(i), json);
                }
            }
            writeBack(writeBack);
        }
        ByteArrayOutputStream array = new ByteArrayOutputStream(colors.size() * 80);
        array.write('[');
        for (int i = 0; i < colors.size(); i++) {
            if (i > 0) {
                array.write(',');
            }
            array.writeBytes(colors.get(i));
        }
        array.write(']');
        return array.toByteArray();
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
