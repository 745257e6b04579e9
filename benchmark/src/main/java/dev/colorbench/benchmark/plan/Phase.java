package dev.colorbench.benchmark.plan;

import java.util.Arrays;
import java.util.Locale;

/** What a thread group of the run is for; its name is part of every sample's label. */
public enum Phase {

    /** Closed model at the throughput settings; its samples are in no figure. */
    WARMUP,
    /** Closed model, fixed threads, no think time: throughput at saturation. */
    THROUGHPUT,
    /** Open model, fixed arrival rate: latency without coordinated omission. */
    LATENCY,
    /** Open model at half the row's own closed-model throughput, measured in the same run. */
    HALF,
    /** Open model at 80 % of the row's own closed-model throughput. */
    EIGHTY,
    /** Closed model while async-profiler samples the module's CPU, after the measured runs; its samples are in no figure. */
    PROFILE,
    /**
     * No load of a row: the harness measures the floor's Redis work itself, once a round, and the plan records what it measured
     * (docs/measuring.md#the-floor).
     */
    FLOOR;

    /** A row's load whose samples and readings are figures of the row. */
    public boolean measured() {
        return this != WARMUP && this != PROFILE && this != FLOOR;
    }

    /** Requests arrive at a rate, whether or not earlier ones came back. */
    public boolean openModel() {
        return this == LATENCY || this == HALF || this == EIGHTY;
    }

    /** For {@link #HALF} and {@link #EIGHTY}, the share of the row's closed-model throughput offered; 0 otherwise. */
    public double share() {
        return this == HALF ? 0.5 : this == EIGHTY ? 0.8 : 0;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    static Phase byLabel(String label) {
        return Arrays.stream(values()).filter(phase -> phase.label().equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Unknown phase '" + label + "'"));
    }
}
