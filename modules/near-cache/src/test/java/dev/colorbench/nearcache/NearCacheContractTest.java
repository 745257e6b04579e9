package dev.colorbench.nearcache;

import java.time.Duration;
import java.util.Map;

import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.redis.nearcache.NearCacheTracking;
import dev.colorbench.testkit.ColorApiContractTest;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.health.registry.HealthContributorRegistry;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/** The contract, at the cost of a warm request: nothing. */
class NearCacheContractTest extends ColorApiContractTest {

    NearCacheContractTest() {
        super(Map.of());
    }

    /**
     * Warm means a full read that cost Redis nothing: the invalidations of an earlier test's writes (seeding again) come on
     * the tracking connection, and can land after one read and take out what it kept.
     */
    @Override
    protected void warmUp() {
        warmUpUntilAReadCostsNothing(Duration.ofSeconds(5));
    }

    /** What an operator watches: the library's own meters, tagged with the cache's name, and its health. */
    @Test
    void theLibrarysMetersAndHealthSayWhetherTheCopyAnswers(@Autowired MeterRegistry registry, @Autowired NearCacheTracking tracking,
            @Autowired HealthContributorRegistry health) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!tracking.isActive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());

        assertThat(registry.get("near.cache.tracking").gauge().value()).isEqualTo(1);
        assertThat(registry.get("near.cache.size").tag("cache", "colors").gauge().value()).isPositive()
                .isLessThanOrEqualTo(Palette.names().size() + 1);
        assertThat(registry.get("near.cache.gets").tag("cache", "colors").tag("result", "hit").functionCounter().count()).isPositive();
        assertThat(registry.get("near.cache.sessions").functionCounter().count()).isGreaterThanOrEqualTo(1);
        assertThat(registry.get("near.cache.bytes").tag("cache", "colors").gauge().value()).isPositive();
        assertThat(registry.find("near.cache.invalidations").tag("cache", "colors").functionCounter()).isNotNull();
        HealthIndicator nearCache = (HealthIndicator) health.getContributor("nearCache");
        assertThat(nearCache).as("the library's health indicator").isNotNull();
        assertThat(nearCache.health().getStatus()).isEqualTo(Status.UP);
    }
}
