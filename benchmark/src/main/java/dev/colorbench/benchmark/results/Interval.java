package dev.colorbench.benchmark.results;

import java.util.Arrays;
import java.util.Collection;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * A figure over the rounds of one run and its 95 % interval: the median of the rounds, and the 2.5th and 97.5th
 * percentiles of the medians of {@value #RESAMPLES} resamples of those rounds, drawn with replacement (a percentile
 * bootstrap over rounds, as Kalibera and Jones advise for the level that varies most). The resamples come from a fixed
 * seed, so the same rounds always give the same interval (docs/measuring.md#rounds-and-intervals).
 *
 * @param estimate the median of the rounds
 * @param low the lower end of the 95 % interval
 * @param high the upper end of the 95 % interval
 * @param rounds how many rounds it is over
 */
public record Interval(double estimate, double low, double high, int rounds) {

    static final int RESAMPLES = 4000;

    private static final long SEED = 41;

    /** The interval of the rounds' values that were measured; {@code null} when none was: missing, not 0. */
    public static Interval of(Collection<Double> values) {
        double[] measured = values.stream().filter(Objects::nonNull).filter(value -> Double.isFinite(value)).mapToDouble(Double::doubleValue)
                .toArray();
        if (measured.length == 0) {
            return null;
        }
        double estimate = median(measured.clone());
        if (measured.length == 1) {
            return new Interval(estimate, estimate, estimate, 1);
        }
        SplittableRandom random = new SplittableRandom(SEED);
        double[] medians = new double[RESAMPLES];
        double[] resample = new double[measured.length];
        for (int i = 0; i < RESAMPLES; i++) {
            for (int j = 0; j < resample.length; j++) {
                resample[j] = measured[random.nextInt(measured.length)];
            }
            medians[i] = median(resample);
        }
        Arrays.sort(medians);
        return new Interval(estimate, medians[(int) Math.floor(0.025 * (RESAMPLES - 1))], medians[(int) Math.ceil(0.975 * (RESAMPLES - 1))],
                measured.length);
    }

    /**
     * The interval of figures taken round by round, in rounds run in several fresh JVMs (forks): a hierarchical bootstrap, as
     * Kalibera and Jones advise where variance lives at two levels. Each resample draws the forks again with replacement,
     * then within each drawn fork its rounds, so that what differs from one JVM to the next widens the interval as much as
     * it should. The estimate is the median of every round. With one fork this is {@link #of(Collection)}.
     *
     * @param byRound each measured round's figure, by round ({@code null} or missing: not measured)
     * @param forkOf the fork that ran a round
     */
    public static Interval overForks(java.util.Map<Integer, Double> byRound, java.util.function.IntUnaryOperator forkOf) {
        java.util.Map<Integer, java.util.List<Double>> forks = new java.util.TreeMap<>();
        byRound.forEach((round, value) -> {
            if (value != null && Double.isFinite(value)) {
                forks.computeIfAbsent(forkOf.applyAsInt(round), fork -> new java.util.ArrayList<>()).add(value);
            }
        });
        if (forks.size() < 2) {
            return of(forks.values().stream().flatMap(java.util.List::stream).toList());
        }
        double[][] groups = forks.values().stream().map(values -> values.stream().mapToDouble(Double::doubleValue).toArray()).toArray(double[][]::new);
        double[] all = Arrays.stream(groups).flatMapToDouble(Arrays::stream).toArray();
        double estimate = median(all.clone());
        SplittableRandom random = new SplittableRandom(SEED);
        double[] medians = new double[RESAMPLES];
        double[] resample = new double[all.length];
        for (int i = 0; i < RESAMPLES; i++) {
            int filled = 0;
            for (int g = 0; g < groups.length && filled < resample.length; g++) {
                double[] fork = groups[random.nextInt(groups.length)];
                for (int j = 0; j < fork.length && filled < resample.length; j++) {
                    resample[filled++] = fork[random.nextInt(fork.length)];
                }
            }
            medians[i] = median(Arrays.copyOf(resample, filled));
        }
        Arrays.sort(medians);
        return new Interval(estimate, medians[(int) Math.floor(0.025 * (RESAMPLES - 1))], medians[(int) Math.ceil(0.975 * (RESAMPLES - 1))],
                all.length);
    }

    /** The same interval with every figure multiplied by {@code factor} (a ratio as a percentage, say). */
    public Interval times(double factor) {
        return new Interval(estimate * factor, low * factor, high * factor, rounds);
    }

    /** Whether the two intervals share a value: the two figures are then level, and neither is ranked above the other. */
    public boolean overlaps(Interval other) {
        return low <= other.high && other.low <= high;
    }

    /** Whether {@code value} lies in the interval. */
    public boolean contains(double value) {
        return low <= value && value <= high;
    }

    /** Half the interval's width as a share of its estimate, in percent: how far the figure may be off. */
    public Double halfWidthPercent() {
        return estimate == 0 ? null : (high - low) * 50 / Math.abs(estimate);
    }

    private static double median(double[] values) {
        Arrays.sort(values);
        int middle = values.length / 2;
        return values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
    }
}
