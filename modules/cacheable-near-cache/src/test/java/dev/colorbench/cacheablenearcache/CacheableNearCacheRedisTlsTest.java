package dev.colorbench.cacheablenearcache;

import java.time.Duration;

import dev.colorbench.redis.nearcache.NearCacheTracking;
import dev.colorbench.testkit.RedisTlsContractTest;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

class CacheableNearCacheRedisTlsTest extends RedisTlsContractTest {

    /** The tracking connection is opened with the application's client: over TLS too, trusting the same bundle. */
    @Test
    void tracksOverTlsToo(@Autowired NearCacheTracking tracking) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!tracking.isActive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(tracking.isActive()).as("tracking active on the TLS connection").isTrue();
    }
}
