package dev.colorbench.benchmark;

/** What a thread group of the run is for; the name is part of every sample's label. */
enum Phase {

    /** Closed model at the throughput plan's settings; its samples are left out of every figure. */
    WARMUP("warmup"),
    /** Closed model, fixed threads, no think time: throughput at saturation. */
    THROUGHPUT("throughput"),
    /** Open model, fixed arrival rate: latency without coordinated omission. */
    LATENCY("latency");

    private final String label;

    Phase(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }

    boolean measured() {
        return this != WARMUP;
    }

    static Phase byLabel(String label) {
        for (Phase phase : values()) {
            if (phase.label.equals(label)) {
                return phase;
            }
        }
        throw new IllegalArgumentException("Unknown phase '" + label + "'");
    }
}
