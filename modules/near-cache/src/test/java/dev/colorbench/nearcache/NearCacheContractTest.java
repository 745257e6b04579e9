package dev.colorbench.nearcache;

import java.time.Duration;
import java.util.Map;

import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.redis.nearcache.NearCacheTracking;
import dev.colorbench.testkit.ColorApiContractTest;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/** The contract, at the cost of a warm request: nothing. */
class NearCacheContractTest extends ColorApiContractTest {

    NearCacheContractTest() {
        super(Map.of());
    }

    /** What an operator watches: whether the copy answers, how full it is, and the invalidations it got. */
    @Test
    void itsMetersSayWhetherTheCopyAnswers(@Autowired MeterRegistry registry, @Autowired NearCacheTracking tracking) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!tracking.isActive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());

        assertThat(registry.get("colorbench.nearcache.tracking").gauge().value()).isEqualTo(1);
        assertThat(registry.get("colorbench.nearcache.colors").gauge().value()).isPositive().isLessThanOrEqualTo(Palette.names().size());
        assertThat(registry.get("colorbench.nearcache.sessions").functionCounter().count()).isGreaterThanOrEqualTo(1);
        assertThat(registry.find("colorbench.nearcache.invalidations").functionCounter()).isNotNull();
    }
}
