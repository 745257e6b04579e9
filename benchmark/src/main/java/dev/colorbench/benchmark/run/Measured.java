package dev.colorbench.benchmark.run;

import java.util.List;
import java.util.Map;

import dev.colorbench.benchmark.results.JMeterResults;

/**
 * What one condition gave: every row verified (its answer, its Redis cost), warmed up (whether it settled
 * is in its warm-up), then loaded by JMeter; the round trip its path to Redis added, as measured; and where each row's CPU went.
 */
public record Measured(Condition condition, Verification verification, List<SteadyState.Warmup> warmups, List<Staleness.Result> staleness,
        JMeterResults results, Double addedRedisRoundTripMillis, Map<String, Profiler.Profile> profiles) {

    public Measured {
        warmups = List.copyOf(warmups);
        profiles = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(profiles));
    }
}
