package com.example.colors;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.cache.Cache.ValueWrapper;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * The pattern: the cache {@code @Cacheable} keeps colors in (colors::v1::&lt;name&gt;, one key per color), read with
 * 1 MGET of the 148 keys, one command and one round trip, where {@code @Cacheable} in a loop sends 148 GETs one after
 * another. A color that is missing or unreadable is answered from the {@link ColorSource} and written back with 1 MSET
 * of just those keys, so that a read never serves a partial list.
 */
@Component
class ColorStore {

    private static final Logger log = LoggerFactory.getLogger(ColorStore.class);

    private final MultiGetRedisCache cache;

    private final ColorSource source;

    private final List<String> names;

    ColorStore(MultiGetRedisCacheManager cacheManager, ColorSource source) {
        this.cache = (MultiGetRedisCache) cacheManager.getCache("colors::v1");
        this.source = source;
        this.names = source.names();
    }

    List<Color> findAll() {
        List<ValueWrapper> found = cache.getAll(names);
        List<Color> colors = new ArrayList<>(names.size());
        Map<String, Color> writeBack = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            Color color = colorOf(names.get(i), found.get(i));
            if (color == null) {
                color = source.find(names.get(i));
                writeBack.put(color.name(), color);
            }
            colors.add(color);
        }
        if (!writeBack.isEmpty()) {
            writeBack(writeBack);
        }
        return colors;
    }

    /** The color cached for {@code name}, or null when there is none, or something that is not that color. */
    private static Color colorOf(String name, ValueWrapper cached) {
        if (cached == null) {
            return null;
        }
        if (cached.get() instanceof Color color && name.equals(color.name())) {
            return color;
        }
        log.warn("Another color at colors::v1::{}, written again", name);
        return null;
    }

    /** A write Redis refuses (memory full) leaves the answer standing; the next read tries again. */
    private void writeBack(Map<String, Color> colors) {
        try {
            cache.putAll(colors);
        }
        catch (DataAccessException ex) {
            log.warn("Could not write {} colors back to Redis: {}", colors.size(), ex.getMessage());
        }
    }
}
