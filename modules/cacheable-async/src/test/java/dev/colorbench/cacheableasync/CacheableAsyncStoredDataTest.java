package dev.colorbench.cacheableasync;

import java.util.Map;

import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.testkit.StoredDataContractTest;
import io.lettuce.core.api.sync.RedisCommands;

class CacheableAsyncStoredDataTest extends StoredDataContractTest {

    CacheableAsyncStoredDataTest() {
        super(ColorKeys::cacheKey, Map.of("get", 148L));
    }

    @Override
    protected void corrupt(BadValue bad, String key, String name, RedisCommands<String, String> redis) {
        bad.writeInAJsonStringLayout(redis, key, name);
    }
}
