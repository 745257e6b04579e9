package dev.colorbench.nearcache;

import dev.colorbench.redis.nearcache.NearCacheTracking;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.stereotype.Component;

/**
 * What an operator watches, read from the library's near cache: {@code colorbench.nearcache.tracking}
 * (1 while the copy answers, 0 while every read goes to Redis), {@code colorbench.nearcache.colors}
 * (colors in the copy), {@code colorbench.nearcache.invalidations} and {@code colorbench.nearcache.sessions}
 * (tracking sessions begun: copies started).
 */
@Component
class NearCacheMeters implements MeterBinder {

    private final NearCacheTracking tracking;

    private final NearCacheColorStore store;

    NearCacheMeters(NearCacheTracking tracking, NearCacheColorStore store) {
        this.tracking = tracking;
        this.store = store;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("colorbench.nearcache.tracking", tracking, tracked -> tracked.isActive() ? 1 : 0)
                .description("1 while the local copy answers, 0 while every read goes to Redis")
                .register(registry);
        Gauge.builder("colorbench.nearcache.colors", store, colors -> colors.cache().size())
                .description("Colors in the local copy").register(registry);
        FunctionCounter.builder("colorbench.nearcache.invalidations", tracking, NearCacheTracking::invalidations)
                .description("Invalidation messages received from Redis").register(registry);
        FunctionCounter.builder("colorbench.nearcache.sessions", tracking, NearCacheTracking::sessions)
                .description("Times Redis confirmed tracking on every (re)connected tracking connection").register(registry);
    }
}
