package dev.colorbench.redissonnearcache;

import java.util.Map;

import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.testkit.StoredDataContractTest;
import io.lettuce.core.api.sync.RedisCommands;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract's bad values, read through Redisson's client-side cache. As for the hand-made near cache, two
 * things are waited for rather than assumed: the bad value reaches the module as an invalidation a moment
 * after the test's write returns ({@link #corrupt} waits until Redisson has dropped its read of the key), and
 * a healed color is read again after its own rewrite invalidates it, so the reads after healing may each cost
 * a GET of each rewritten key (all 148 after the keys were deleted) until one costs nothing.
 */
class RedissonNearCacheStoredDataTest extends StoredDataContractTest {

    @Autowired
    private RedissonNearCacheColorStore store;

    RedissonNearCacheStoredDataTest() {
        super(ColorKeys::jsonKey, Map.of());
    }

    @Override
    protected void corrupt(BadValue bad, String key, String name, RedisCommands<String, String> redis) {
        Object held = store.heldRead(name);
        bad.writeInAJsonStringLayout(redis, key, name);
        awaitInvalidation(key, held, () -> store.heldRead(name));
    }

    @Override
    protected void assertAFullReadIsServedFromRedisAtTheUsualCost() {
        assertTheCopyIsWarmAgainAfterHealing((read, cost) -> {
            assertThat(cost.keySet()).as("read %d after healing: a GET of each color Redisson no longer holds: %s", read, cost).containsOnly("get");
            assertThat(cost.get("get")).as("GETs of read %d after healing", read).isBetween(1L, (long) Palette.names().size());
        });
    }
}
