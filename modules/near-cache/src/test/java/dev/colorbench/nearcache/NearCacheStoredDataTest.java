package dev.colorbench.nearcache;

import java.util.Map;

import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.redis.nearcache.NearCacheTracking;
import dev.colorbench.testkit.StoredDataContractTest;
import io.lettuce.core.api.sync.RedisCommands;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract's bad values, read through a near cache. Two things differ from a module that reads
 * Redis on every request, and both are waited for rather than assumed:
 * <ul>
 * <li>the bad value reaches the module as an invalidation, a moment after the test's write returns; a
 * read in between is answered from the copy (rightly: the palette) and finds nothing to heal, so
 * {@link #corrupt} waits until the module has received it;</li>
 * <li>the usual cost of a full read is nothing, once the copy holds every color again: a healed color
 * is not kept (its own rewrite invalidates it), so the reads after healing may each cost one MGET of
 * the rewritten keys until one costs nothing.</li>
 * </ul>
 * The reads after healing are counted once the copy answers: it stops while it cannot show that Redis's
 * invalidations arrive (a heartbeat late on a loaded machine), and reads Redis until it can.
 */
class NearCacheStoredDataTest extends StoredDataContractTest {

    @Autowired
    private NearCacheTracking tracking;

    NearCacheStoredDataTest() {
        super(ColorKeys::jsonKey, Map.of());
    }

    @Override
    protected void corrupt(BadValue bad, String key, String name, RedisCommands<String, String> redis) {
        long received = tracking.invalidations();
        bad.writeInAJsonStringLayout(redis, key, name);
        awaitInvalidation(key, received, tracking::invalidations);
    }

    @Override
    protected void assertAFullReadIsServedFromRedisAtTheUsualCost() {
        awaitCopy("the near cache's copy did not answer again", tracking::isActive);
        assertTheCopyIsWarmAgainAfterHealing((read, cost) ->
                assertThat(cost).as("read %d after healing: one MGET of what the copy lacks", read).isEqualTo(Map.of("mget", 1L)));
    }
}
