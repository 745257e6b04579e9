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
    LATENCY;

    public boolean measured() {
        return this != WARMUP;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    static Phase byLabel(String label) {
        return Arrays.stream(values()).filter(phase -> phase.label().equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Unknown phase '" + label + "'"));
    }
}
