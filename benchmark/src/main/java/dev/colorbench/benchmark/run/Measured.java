package dev.colorbench.benchmark.run;

import java.util.List;

import dev.colorbench.benchmark.results.JMeterResults;

/**
 * What one condition gave: every row verified (its answer, its Redis cost), warmed to a steady
 * state, then loaded by JMeter; and the round trip its path to Redis added, as measured.
 */
public record Measured(Condition condition, Verification verification, List<SteadyState.Warmup> warmups, List<Staleness.Result> staleness,
        JMeterResults results, Double addedRedisRoundTripMillis) {

    public Measured {
        warmups = List.copyOf(warmups);
    }
}
