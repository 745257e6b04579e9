package dev.colorbench.redis.nearcache;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The near cache in {@code /actuator/health} (component {@code nearCache}), made by
 * {@link NearCacheAutoConfiguration} when Spring Boot's health support is there. {@code UP} while the
 * copies answer, or when the near cache is turned off. While they do not (tracking is being set up again),
 * {@code redis.near-cache.health-while-not-answering}: {@code UNKNOWN} by default, since reads are still
 * right, going to Redis, and a Redis that blinks would otherwise take every instance out of service at once;
 * {@code DOWN} or {@code OUT_OF_SERVICE} where the platform should notice. Its details say why: each server
 * and whether it tracks, the sessions, the drops and the last drop's cause, and each cache's size.
 */
public final class NearCacheHealthIndicator extends AbstractHealthIndicator {

    private final NearCacheTracking tracking;

    public NearCacheHealthIndicator(NearCacheTracking tracking) {
        super("Near cache health check failed");
        this.tracking = tracking;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        if (!tracking.isEnabled()) {
            builder.up().withDetail("enabled", false);
            return;
        }
        (tracking.isActive() ? builder.up() : builder.status(tracking.properties().getHealthWhileNotAnswering().name()))
                .withDetail("answering", tracking.isActive())
                .withDetail("servers", tracking.servers())
                .withDetail("sessions", tracking.sessions())
                .withDetail("drops", tracking.drops())
                .withDetail("undelivered", tracking.undelivered());
        if (tracking.lastDrop() != null) {
            builder.withDetail("lastDrop", tracking.lastDrop());
        }
        tracking.caches().forEach(cache -> builder.withDetail("cache " + cache.name(), cache.size() + " entries, " + cache.bytes() + " bytes"));
    }
}
