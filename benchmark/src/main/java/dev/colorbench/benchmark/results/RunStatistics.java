package dev.colorbench.benchmark.results;

import dev.colorbench.testkit.statistics.Statistics;
import java.util.ArrayList;
import java.util.List;

/**
 * The figures of a set of samples: how many, how many failed, throughput over the measured
 * window and latency (whole milliseconds, as JMeter records them; percentiles by nearest rank).
 * Latency figures are {@code null} for no samples.
 */
public record RunStatistics(long samples, long errors, double tps, Double meanMs, Long p50Ms, Long p95Ms, Long p99Ms, Long maxMs,
        List<Integer> perSecond, Double climbPercent) {

    /**
     * How far the first half of a measured window may serve below its second half, in percent, before the run is said
     * to climb: a row still warming climbs, a warm one only wobbles (docs/measuring.md#warm-up-and-steady-state).
     */
    public static final double CLIMB_PERCENT = 10;

    /**
     * @param skipMillis left out of the throughput at the start of the run: the ramp-up, while not
     *        every thread is sending yet. Errors and latency count every sample.
     */
    public static RunStatistics of(List<Sample> samples, long skipMillis) {
        if (samples.isEmpty()) {
            return new RunStatistics(0, 0, 0, null, null, null, null, null, List.of(), null);
        }
        long start = samples.stream().mapToLong(Sample::timestamp).min().orElseThrow();
        long measuredFrom = start + skipMillis;
        List<Sample> measured = samples.stream().filter(sample -> sample.timestamp() >= measuredFrom).toList();
        long windowEnd = measured.stream().mapToLong(Sample::end).max().orElse(measuredFrom);
        double tps = windowEnd > measuredFrom ? measured.size() * 1000.0 / (windowEnd - measuredFrom) : 0;
        long[] elapsed = samples.stream().mapToLong(Sample::elapsed).sorted().toArray();
        long errors = samples.stream().filter(sample -> !sample.success()).count();
        return new RunStatistics(samples.size(), errors, tps, average(elapsed), percentile(elapsed, 50), percentile(elapsed, 95),
                percentile(elapsed, 99), elapsed[elapsed.length - 1], perSecond(samples, start), climb(measured, measuredFrom, windowEnd));
    }

    /** Whether the measured window climbed: its first half served more than {@value #CLIMB_PERCENT} % below its second half. */
    public boolean climbed() {
        return climbPercent != null && climbPercent > CLIMB_PERCENT;
    }

    /**
     * By how much the first half of the measured window served less than its second half, as a share of the second half,
     * in percent (negative when it served more); {@code null} for a window too short to halve.
     */
    static Double climb(List<Sample> measured, long from, long to) {
        if (to - from < 2 || measured.size() < 20) {
            return null;
        }
        long middle = from + (to - from) / 2;
        long first = measured.stream().filter(sample -> sample.timestamp() < middle).count();
        long second = measured.size() - first;
        return second == 0 ? null : (second - first) * 100.0 / second;
    }

    /** The percentile of the one definition ({@link Statistics#percentile}), of whole milliseconds as JMeter records them. */
    static long percentile(long[] sorted, double percent) {
        return (long) Statistics.percentile(java.util.Arrays.stream(sorted).asDoubleStream().toArray(), percent);
    }

    private static double average(long[] values) {
        double sum = 0;
        for (long value : values) {
            sum += value;
        }
        return sum / values.length;
    }

    /** Samples started in each second of the run, for the throughput-over-time chart. */
    private static List<Integer> perSecond(List<Sample> samples, long start) {
        List<Integer> counts = new ArrayList<>();
        for (Sample sample : samples) {
            int second = (int) ((sample.timestamp() - start) / 1000);
            while (counts.size() <= second) {
                counts.add(0);
            }
            counts.set(second, counts.get(second) + 1);
        }
        return List.copyOf(counts);
    }
}
