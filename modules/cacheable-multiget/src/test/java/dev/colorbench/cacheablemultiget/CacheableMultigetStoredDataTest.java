package dev.colorbench.cacheablemultiget;

import java.util.Map;

import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.testkit.StoredDataContractTest;
import io.lettuce.core.api.sync.RedisCommands;

class CacheableMultigetStoredDataTest extends StoredDataContractTest {

    CacheableMultigetStoredDataTest() {
        super(ColorKeys::cacheKey, Map.of("mget", 1L));
    }

    @Override
    protected void corrupt(BadValue bad, String key, String name, RedisCommands<String, String> redis) {
        bad.writeInAJsonStringLayout(redis, key, name);
    }
}
