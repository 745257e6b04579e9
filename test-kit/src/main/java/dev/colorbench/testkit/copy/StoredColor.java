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

    /**
     * Puts a key of another type where the color was, as another application might; false where the layout has no key
     * of the color's own (a field of a hash, an element of a list).
     */
    default boolean replaceWithAnotherType(RedisCommands<String, String> redis, String name) {
        return false;
    }

    /** One string key per color. */
    static StoredColor stringKey(Function<String, String> key) {
        return new StoredColor() {

            /** The string, null for no key, or the type of a key that holds another. */
            @Override
            public String read(RedisCommands<String, String> redis, String name) {
                String type = redis.type(key.apply(name));
                return switch (type) {
                    case "string" -> redis.get(key.apply(name));
                    case "none" -> null;
                    default -> "a key of type " + type;
                };
            }

            @Override
            public void remove(RedisCommands<String, String> redis, String name) {
                redis.del(key.apply(name));
            }

            @Override
            public void corrupt(RedisCommands<String, String> redis, String name) {
                redis.set(key.apply(name), "not a color");
            }

            @Override
            public boolean replaceWithAnotherType(RedisCommands<String, String> redis, String name) {
                redis.del(key.apply(name));
                redis.sadd(key.apply(name), "not a color");
                return true;
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
