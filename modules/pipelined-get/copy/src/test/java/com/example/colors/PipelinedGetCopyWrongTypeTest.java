package com.example.colors;

import dev.colorbench.testkit.copy.CopyContractTest;
import dev.colorbench.testkit.copy.StoredColor;
import io.lettuce.core.api.sync.RedisCommands;

/** A color whose key holds another type: its GET fails the whole pipeline, and the read must still answer and heal. */
class PipelinedGetCopyWrongTypeTest extends CopyContractTest {

    PipelinedGetCopyWrongTypeTest() {
        super(new StoredColor() {

            private final StoredColor string = StoredColor.stringKey(name -> "colors::v3::" + name);

            @Override
            public String read(RedisCommands<String, String> redis, String name) {
                return string.read(redis, name);
            }

            @Override
            public void remove(RedisCommands<String, String> redis, String name) {
                string.remove(redis, name);
            }

            @Override
            public void corrupt(RedisCommands<String, String> redis, String name) {
                redis.del("colors::v3::" + name);
                redis.sadd("colors::v3::" + name, "not a color");
            }
        });
    }
}
