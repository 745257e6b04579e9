package dev.colorbench.benchmark.results;

import dev.colorbench.testkit.statistics.Statistics;
import java.util.Collection;
import java.util.Objects;

/** The median of the repetitions and their range: how much one figure moved between runs. */
public record Spread(double median, double min, double max, int measured) {

    /** The spread of the values that were measured; {@code null} when none was: missing, not 0. */
    public static Spread of(Collection<Double> values) {
        double[] sorted = values.stream().filter(Objects::nonNull).mapToDouble(Double::doubleValue).sorted().toArray();
        if (sorted.length == 0) {
            return null;
        }
        return new Spread(Statistics.median(sorted), sorted[0], sorted[sorted.length - 1], sorted.length);
    }

    /** The range as a share of the median, in percent: the figure the spread is judged by; {@code null} for a median of 0. */
    public Double rangePercent() {
        return median == 0 ? null : (max - min) * 100 / median;
    }
}
