package dev.colorbench.redissonnearcache;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.testkit.StoredDataContractTest;
import io.lettuce.core.api.sync.RedisCommands;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract's bad values, read through Redisson's client-side cache. As for the hand-made near cache, two
 * things are waited for rather than assumed, since Redisson learns of a write over its own connection a moment
 * after the write returns: the bad value reaching the module ({@link #corrupt} waits until Redisson has dropped
 * its read of the key), and the module's own healing write reaching Redisson. Until that invalidation arrives,
 * Redisson answers the read it held (the missing or bad value), and a request in that moment heals again: so the
 * reads after healing are counted once Redisson holds what Redis holds, and must then cost Redis nothing.
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
        awaitCopy("Redisson still held a read from before the healing write", this::redissonHoldsWhatRedisHolds);
        assertTheCopyIsWarmAgainAfterHealing((read, cost) -> {
            assertThat(cost.keySet()).as("read %d after healing: a GET of each color Redisson no longer holds: %s", read, cost).containsOnly("get");
            assertThat(cost.get("get")).as("GETs of read %d after healing", read).isBetween(1L, (long) Palette.names().size());
        });
    }

    /** Whether Redisson's read of every color is what Redis holds now (asking it reads again what it dropped). */
    private boolean redissonHoldsWhatRedisHolds() {
        for (String name : Palette.names()) {
            String inRedis = redis().get(ColorKeys.jsonKey(name));
            byte[] held;
            try {
                held = store.heldRead(name).toCompletableFuture().join();
            }
            catch (RuntimeException ex) {
                return false;
            }
            if (held == null || !new String(held, StandardCharsets.UTF_8).equals(inRedis)) {
                return false;
            }
        }
        return true;
    }
}
