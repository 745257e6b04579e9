package dev.colorbench.benchmark.report;

import org.junit.jupiter.api.Test;

import dev.colorbench.benchmark.results.Arrivals;

import static org.assertj.core.api.Assertions.assertThat;

/** The open model's latency from the due time against the module's own: one set of requests cannot wait less than it was served. */
class LatencyTest {

    @Test
    void aLatencyFromTheDueTimeBelowTheServiceTimeIsNamed() {
        Arrivals arrivals = new Arrivals(100, 100, 100, 0, 0, 300L, 900L, 2_000L, 3_000L, 10_000_000L, 0, 0, false, null);

        assertThat(latency(arrivals, 250.0, 900.0, 1_999.0).dueBelowService()).isEmpty();
        assertThat(latency(arrivals, 301.0, 800.0, 2_001.0).dueBelowService()).containsExactly("p50", "p99");
        assertThat(latency(null, 301.0, 800.0, 2_001.0).dueBelowService()).as("the closed model has no due times").isEmpty();
    }

    private static ModuleSummary.Latency latency(Arrivals arrivals, Double p50, Double p90, Double p99) {
        return new ModuleSummary.Latency(1.0, 1L, 1L, 2L, 3L, 100, 0, 100.0, 100.0, p50, p90, p99, p99, arrivals);
    }
}
