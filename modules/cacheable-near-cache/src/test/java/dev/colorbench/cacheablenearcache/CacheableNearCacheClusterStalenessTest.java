package dev.colorbench.cacheablenearcache;

import java.util.Map;

import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.redis.nearcache.NearCache;
import dev.colorbench.redis.nearcache.NearCacheManager;
import dev.colorbench.redis.nearcache.NearCacheTracking;
import dev.colorbench.testkit.ClusterStalenessContractTest;

import org.springframework.beans.factory.annotation.Autowired;

/**
 * The cluster staleness contract for the near cache manager, as near-cache's cluster test holds the
 * library's own near cache. A full miss reads the whole palette: one MGET per color, one after another
 * as the loop asks, each to its key's master.
 */
class CacheableNearCacheClusterStalenessTest extends ClusterStalenessContractTest {

    @Autowired
    private NearCacheTracking tracking;

    @Autowired
    private NearCacheManager cacheManager;

    CacheableNearCacheClusterStalenessTest() {
        super(ColorKeys::cacheKey);
    }

    @Override
    protected LocalCopy localCopy() {
        NearCache<Object> cache = cacheManager.getNearCache(ColorKeys.CACHE_NAME).nearCache();
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
