package dev.colorbench.nearcache;

import java.util.Map;

import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.redis.nearcache.NearCache;
import dev.colorbench.redis.nearcache.NearCacheTracking;
import dev.colorbench.testkit.ClusterStalenessContractTest;

import org.springframework.beans.factory.annotation.Autowired;

/**
 * The cluster staleness contract for the library's own near cache of the colors' JSON. A full miss reads
 * the whole palette in one MGET, which Lettuce splits into one MGET per slot (the 148 keys are in 148 slots)
 * sent to the three masters together.
 */
class NearCacheClusterStalenessTest extends ClusterStalenessContractTest {

    @Autowired
    private NearCacheTracking tracking;

    @Autowired
    private NearCacheColorStore store;

    NearCacheClusterStalenessTest() {
        super(ColorKeys::jsonKey);
    }

    @Override
    protected LocalCopy localCopy() {
        NearCache<byte[]> cache = store.cache();
        return new LocalCopy(cache::isActive, key -> cache.getIfPresent(key) != null);
    }

    @Override
    protected boolean trackingActive() {
        return tracking.isActive();
    }

    @Override
    protected long trackingSessions() {
        return tracking.sessions();
    }

    @Override
    protected Map<String, Boolean> trackedServers() {
        return tracking.servers();
    }
}
