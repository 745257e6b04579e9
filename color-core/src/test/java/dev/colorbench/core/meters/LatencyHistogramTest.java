package dev.colorbench.core.meters;

import java.time.Duration;
import java.util.Map;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The latency endpoint's histogram: microsecond buckets whose counts only grow, over every status of GET /colors. */
class LatencyHistogramTest {

    private final LatencyHistogramAutoConfiguration configuration = new LatencyHistogramAutoConfiguration();

    @Test
    @SuppressWarnings("unchecked")
    void countsEachRequestInTheFirstBucketAsLongAsItAndSumsTheStatuses() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        registry.config().meterFilter(configuration.latencyBuckets());
        Timer ok = Timer.builder("http.server.requests").tags("uri", "/colors", "method", "GET", "status", "200").register(registry);
        Timer unavailable = Timer.builder("http.server.requests").tags("uri", "/colors", "method", "GET", "status", "503").register(registry);
        Timer other = Timer.builder("http.server.requests").tags("uri", "/colors/{name}", "method", "GET", "status", "200").register(registry);
        ok.record(Duration.ofNanos(20_000));
        ok.record(Duration.ofNanos(130_000));
        unavailable.record(Duration.ofNanos(140_000));
        other.record(Duration.ofNanos(10_000));

        Map<String, Object> histogram = new LatencyHistogramAutoConfiguration.LatencyEndpoint(() -> registry).histogram();

        Map<String, Double> buckets = (Map<String, Double>) histogram.get("buckets");
        assertThat(histogram.get("count")).isEqualTo(3L);
        assertThat(buckets).hasSize(LatencyHistogramAutoConfiguration.BOUNDARIES.size());
        assertThat(buckets.get("25.0")).isEqualTo(1.0);
        assertThat(buckets.get("125.0")).isEqualTo(1.0);
        assertThat(buckets.get("150.0")).isEqualTo(3.0);
        assertThat(buckets.get("1.0E7")).isEqualTo(3.0);
    }
}
