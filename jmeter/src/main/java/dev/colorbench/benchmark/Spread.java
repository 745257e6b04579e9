package dev.colorbench.benchmark;

import java.util.List;

/** The median of the repetitions and their range: how much one figure moved between runs. */
record Spread(double median, double min, double max) {

    static Spread of(List<Double> values) {
        if (values.isEmpty()) {
            return new Spread(0, 0, 0);
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int middle = sorted.length / 2;
        double median = sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
        return new Spread(median, sorted[0], sorted[sorted.length - 1]);
    }
}
