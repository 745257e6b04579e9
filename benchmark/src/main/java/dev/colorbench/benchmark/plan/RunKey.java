package dev.colorbench.benchmark.plan;

import java.util.Optional;

/**
 * One thread group of the run: a row, a phase and a repetition (0 for the warm-up). Its label,
 * which JMeter writes into every sample, is how the results find a run's samples again, and a
 * reading's label adds whether it was taken before or after the run, and of which meter.
 */
public record RunKey(String target, Phase phase, int repetition) {

    private static final String SEPARATOR = "|";

    public String label() {
        return target + SEPARATOR + phase.label() + SEPARATOR + repetition;
    }

    String readingLabel(boolean before, ServerMetric metric) {
        return label() + SEPARATOR + (before ? "before" : "after") + SEPARATOR + metric.meter();
    }

    /** The label of the plan's call that the run's load is about to start: neither load nor reading, so the results leave it out. */
    String startingLabel() {
        return label() + SEPARATOR + "starting";
    }

    /** What a sample's label says: a run's load, or a reading around it; empty for a label this plan did not write. */
    public static Optional<Labelled> parse(String label) {
        String[] parts = label.split("\\|");
        if (parts.length != 3 && parts.length != 5) {
            return Optional.empty();
        }
        try {
            RunKey key = new RunKey(parts[0], Phase.byLabel(parts[1]), Integer.parseInt(parts[2]));
            if (parts.length == 3) {
                return Optional.of(new Labelled(key, null, null));
            }
            if (!parts[3].equals("before") && !parts[3].equals("after")) {
                return Optional.empty();
            }
            return Optional.of(new Labelled(key, parts[3].equals("before"), ServerMetric.byMeter(parts[4])));
        }
        catch (IllegalArgumentException ex) {
            return Optional.empty();
        }
    }

    /** A parsed label: {@code before} and {@code metric} are null for a sample of the load itself. */
    public record Labelled(RunKey run, Boolean before, ServerMetric metric) {

        public boolean isReading() {
            return metric != null;
        }
    }
}
