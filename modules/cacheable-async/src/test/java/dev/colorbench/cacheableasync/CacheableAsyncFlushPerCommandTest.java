package dev.colorbench.cacheableasync;

import dev.colorbench.testkit.LocalHttp;
import dev.colorbench.testkit.TestRedis;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code flush-per-command} variant: Lettuce as it comes, flushing every command on its own.
 * The 148 lookups are still in flight together and still correct, but Redis reads them in many
 * more round trips, and how many varies widely with thread scheduling (the module's README). This
 * test prints the figure rather than bound it, beyond the obvious: never more than one round trip per GET.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "colorbench.consolidate-flushes=false")
class CacheableAsyncFlushPerCommandTest {

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void redisUrl(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.url", TestRedis::url);
    }

    @Test
    void the148LookupsStillOverlapButShareFewerReads() {
        LocalHttp.get(port, "/colors");

        RoundTripSample sample = RoundTripSample.measure(TestRedis.url(), 50, () -> LocalHttp.get(port, "/colors"));

        System.out.println("cacheable-async, a flush per command: " + sample);
        assertThat(sample.max()).as(sample.toString()).isLessThanOrEqualTo(148);
    }
}
