package dev.colorbench.testkit.copy;

import java.util.function.Function;

import io.lettuce.core.api.sync.RedisCommands;

/**
 * Where a copy keeps one color in Redis, for {@link CopyContractTest} to read it, take it away and spoil it from outside,
 * as a restart, an eviction or another writer would.
 */
public interface StoredColor {

    /** What Redis holds for {@code name}, as text, or null when it holds nothing. */
    String read(RedisCommands<String, String> redis, String name);

    /** Takes the color away. */
    void remove(RedisCommands<String, String> redis, String name);

    /** Replaces the color with something that is not a color. */
    void corrupt(RedisCommands<String, String> redis, String name);

    /** One string key per color. */
    static StoredColor stringKey(Function<String, String> key) {
        return new StoredColor() {

            @Override
            public String read(RedisCommands<String, String> redis, String name) {
                return redis.get(key.apply(name));
            }

            @Override
            public void remove(RedisCommands<String, String> redis, String name) {
                redis.del(key.apply(name));
            }

            @Override
            public void corrupt(RedisCommands<String, String> redis, String name) {
                redis.set(key.apply(name), "not a color");
            }
        };
    }

    /** One field per color in one hash. */
    static StoredColor hashField(String hash) {
        return new StoredColor() {

            @Override
            public String read(RedisCommands<String, String> redis, String name) {
                return redis.hget(hash, name);
            }

            @Override
            public void remove(RedisCommands<String, String> redis, String name) {
                redis.hdel(hash, name);
            }

            @Override
            public void corrupt(RedisCommands<String, String> redis, String name) {
                redis.hset(hash, name, "not a color");
            }
        };
    }
}
