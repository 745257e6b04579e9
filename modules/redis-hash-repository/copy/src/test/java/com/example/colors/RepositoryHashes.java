package com.example.colors;

import java.util.Map;
import java.util.TreeMap;

import dev.colorbench.testkit.copy.StoredColor;
import io.lettuce.core.api.sync.RedisCommands;

/** Spring Data's layout: one hash per color, colors::v2:&lt;name&gt;, and its id in the set colors::v2. */
final class RepositoryHashes implements StoredColor {

    private static final String ID_SET = "colors::v2";

    private static String key(String name) {
        return ID_SET + ":" + name;
    }

    /** The hash's fields in order, and whether its id is in the set; null when neither is there. */
    @Override
    public String read(RedisCommands<String, String> redis, String name) {
        Map<String, String> fields = redis.hgetall(key(name));
        boolean listed = redis.sismember(ID_SET, name);
        return (fields.isEmpty() && !listed) ? null : new TreeMap<>(fields) + (listed ? " listed" : " not listed");
    }

    /** The hash and its id, gone as after a restart. */
    @Override
    public void remove(RedisCommands<String, String> redis, String name) {
        redis.del(key(name));
        redis.srem(ID_SET, name);
    }

    /** A field that is not a number: Spring Data cannot map the hash, and its findAll() fails. */
    @Override
    public void corrupt(RedisCommands<String, String> redis, String name) {
        redis.hset(key(name), "red", "not a color");
    }
}
