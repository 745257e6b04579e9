package com.example.colors;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The pattern: one GET /colors is 1 MGET of the 148 keys colors::v3::&lt;name&gt;, one command and one round trip, sent
 * to the connection with the keys encoded once, below the template's serializers. Each value that is the JSON of its
 * color is copied as it is into the answer, with no Color made and no Jackson on the way. A color that is missing
 * (Redis restarted empty) or unreadable is answered from the {@link ColorSource} and written back with 1 MSET of just
 * those keys, so that a read never serves a partial list.
 */
@Component
class ColorStore {

    private static final Logger log = LoggerFactory.getLogger(ColorStore.class);

    private final RedisTemplate<String, byte[]> template;

    private final JsonMapper mapper;

    private final List<String> names;

    /** Each color's key, encoded once. */
    private final byte[][] keys;

    /** What each color's JSON starts with: {"name":"&lt;name&gt;","hex":"#. */
    private final byte[][] heads;

    /** Each color's JSON from the source: a value equal to it skips the byte check; it answers a miss and is written back. */
    private final byte[][] fromSource;

    ColorStore(RedisTemplate<String, byte[]> colorTemplate, JsonMapper mapper, ColorSource source) {
        this.template = colorTemplate;
        this.mapper = mapper;
        this.names = source.names();
        this.keys = new byte[names.size()][];
        this.heads = new byte[names.size()][];
        this.fromSource = new byte[names.size()][];
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            keys[i] = ("colors::v3::" + name).getBytes(StandardCharsets.UTF_8);
            heads[i] = CanonicalColorJson.head(name);
            fromSource[i] = mapper.writeValueAsBytes(source.find(name));
            if (!CanonicalColorJson.isCanonical(heads[i], fromSource[i])) {
                throw new IllegalStateException("The JsonMapper writes " + name + " as "
                        + new String(fromSource[i], StandardCharsets.UTF_8) + ": leave spring.jackson writing compact JSON");
            }
        }
    }

    /** The JSON array of every color, in one buffer of the exact size. */
    byte[] findAll() {
        List<byte[]> values = template.execute((RedisCallback<List<byte[]>>) connection -> connection.stringCommands().mGet(keys));
        byte[][] elements = new byte[names.size()][];
        Map<String, byte[]> writeBack = new LinkedHashMap<>();
        int length = 1 + names.size();
        for (int i = 0; i < names.size(); i++) {
            byte[] value = values.get(i);
            if (value != null && (Arrays.equals(value, fromSource[i]) || CanonicalColorJson.isCanonical(heads[i], value))) {
                elements[i] = value;
            }
            else {
                elements[i] = (value == null) ? null : readable(i, value);
                if (elements[i] == null) {
                    elements[i] = fromSource[i];
                    writeBack.put("colors::v3::" + names.get(i), fromSource[i]);
                }
            }
            length += elements[i].length;
        }
        if (!writeBack.isEmpty()) {
            writeBack(writeBack);
        }
        return array(elements, length);
    }

    /**
     * A value in another shape (spaces, another order of properties), decoded: its color's JSON if it is a consistent
     * color under its own name, else null.
     */
    private byte[] readable(int i, byte[] value) {
        try {
            byte[] json = mapper.writeValueAsBytes(mapper.readValue(value, Color.class));
            if (CanonicalColorJson.isCanonical(heads[i], json)) {
                return json;
            }
        }
        catch (JacksonException ex) {
            // not JSON, or not a color: unreadable
        }
        log.warn("Unreadable value for color {} in Redis, written again", names.get(i));
        return null;
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

    /** [e1,e2,...]: the elements copied into one array of {@code length} bytes, with commas between them. */
    private static byte[] array(byte[][] elements, int length) {
        byte[] array = new byte[length];
        array[0] = '[';
        int at = 1;
        for (byte[] element : elements) {
            System.arraycopy(element, 0, array, at, element.length);
            at += element.length;
            array[at++] = ',';
        }
        array[length - 1] = ']';
        return array;
    }
}
