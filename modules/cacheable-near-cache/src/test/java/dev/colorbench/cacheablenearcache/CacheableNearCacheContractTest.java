package dev.colorbench.cacheablenearcache;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.redis.nearcache.NearCache;
import dev.colorbench.redis.nearcache.NearCacheManager;
import dev.colorbench.redis.nearcache.NearCacheTracking;
import dev.colorbench.testkit.ColorApiContractTest;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.health.registry.HealthContributorRegistry;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.cache.CacheManager;

import static org.assertj.core.api.Assertions.assertThat;

/** The contract, at the cost of a warm request: nothing. */
class CacheableNearCacheContractTest extends ColorApiContractTest {

    /** How long the invalidations of an earlier test's writes, or a new copy, may take under a loaded build. */
    private static final Duration SETTLED = Duration.ofSeconds(5);

    @Autowired
    private NearCacheTracking tracking;

    @Autowired
    private CacheManager cacheManager;

    CacheableNearCacheContractTest() {
        super(Map.of());
    }

    /**
     * Warm means a full read that cost Redis nothing: the invalidations of an earlier test's writes (seeding again, 148 SET)
     * come on the tracking connection, and can land after one read and take out what it kept.
     */
    @Override
    protected void warmUp() {
        warmUpUntilAReadCostsNothing(SETTLED);
    }

    @Test
    void theCacheManagerIsTheNearOneOnCacheableLoopsKeysAndBytes() {
        assertThat(cacheManager).isInstanceOf(NearCacheManager.class);
        warmUp();
        for (Color color : Palette.all()) {
            String key = ColorKeys.cacheKey(color.name());
            assertThat(redis().get(key)).as(key).isEqualTo(ColorJson.of(color));
            assertThat(redis().ttl(key)).as("the TTL of %s", key).isEqualTo(-1L);
        }
    }

    /**
     * Redis emptied of the colors: one {@code GET /colors} misses each, reads it (MGET), finds no key of another type
     * (TYPE) and writes the palette's (SET), one color after another. Each write takes its key out of the copy, so the
     * reads that follow cost one MGET per color the copy lacks, until one costs nothing.
     */
    @Test
    void aColdCacheCostsAReadACheckAndAWritePerColorThenNothing() {
        warmUp();
        NearCache<Object> copy = ((NearCacheManager) cacheManager).getNearCache(ColorKeys.CACHE_NAME).nearCache();
        redis().del(Palette.names().stream().map(ColorKeys::cacheKey).toArray(String[]::new));
        long deadline = System.nanoTime() + SETTLED.toNanos();
        while (copy.size() > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(copy.size()).as("colors in the copy once the DEL's invalidations arrived").isZero();

        Map<String, Long> cold = workDuring(() -> assertThat(get("/colors").body()).isEqualTo(ColorJson.palette())).byName();
        assertThat(cold).isEqualTo(Map.of("mget", 148L, "type", 148L, "set", 148L));

        deadline = System.nanoTime() + SETTLED.toNanos();
        while (true) {
            Map<String, Long> refill = workDuring(() -> assertThat(get("/colors").body()).isEqualTo(ColorJson.palette())).byName();
            if (refill.isEmpty()) {
                break;
            }
            assertThat(refill.keySet()).as("a read after the cold one: %s", refill).isEqualTo(Set.of("mget"));
            assertThat(System.nanoTime()).as("warm again within %s", SETTLED).isLessThan(deadline);
        }
        assertThat(redis().get(ColorKeys.cacheKey("red"))).isEqualTo(ColorJson.of(Palette.find("red").orElseThrow()));
    }

    /** What an operator watches: the library's own meters, tagged with the cache's name, and its health. */
    @Test
    void theLibrarysMetersAndHealthSayWhetherTheCopyAnswers(@Autowired MeterRegistry registry, @Autowired HealthContributorRegistry health)
            throws InterruptedException {
        long deadline = System.nanoTime() + SETTLED.toNanos();
        while (!tracking.isActive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        warmUp();
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());

        String cache = ColorKeys.CACHE_NAME;
        assertThat(registry.get("near.cache.tracking").gauge().value()).isEqualTo(1);
        assertThat(registry.get("near.cache.size").tag("cache", cache).gauge().value()).isEqualTo(Palette.names().size());
        assertThat(registry.get("near.cache.gets").tag("cache", cache).tag("result", "hit").functionCounter().count())
                .isGreaterThanOrEqualTo(Palette.names().size());
        assertThat(registry.get("near.cache.sessions").functionCounter().count()).isGreaterThanOrEqualTo(1);
        assertThat(registry.get("near.cache.bytes").tag("cache", cache).gauge().value()).isPositive();
        assertThat(registry.find("near.cache.invalidations").tag("cache", cache).functionCounter()).isNotNull();
        HealthIndicator nearCache = (HealthIndicator) health.getContributor("nearCache");
        assertThat(nearCache).as("the library's health indicator").isNotNull();
        assertThat(nearCache.health().getStatus()).isEqualTo(Status.UP);
    }
}
