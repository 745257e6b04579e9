package dev.colorbench.benchmark.results;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import dev.colorbench.benchmark.Format;

/**
 * What became of one open-model run's arrivals, and their latency from the time each was due: the time its caller waited,
 * whether a thread was free to send it or not (docs/measuring.md#latency-at-a-share-of-throughput).
 * <p>
 * {@code scheduled} arrivals fell in the run's window; {@code sent} of them were sent, of which {@code served} were answered
 * right and {@code failed} not; {@code dropped} were never sent, as the run ended first. The percentiles, in µs, count every
 * scheduled arrival: a dropped one as {@code droppedAtLeastMicros}, the least it waited, so with any dropped they are lower
 * bounds. {@code maxLagMs} is the latest a request went out after its due time (every thread busy, or JMeter late);
 * {@code queueGrowthMs} how much longer, on average, the last quarter of the sent arrivals waited from their due time than
 * the first quarter. {@code overloaded} says whether the row kept up with the arrivals, {@code overloadedBecause} why not.
 */
public record Arrivals(long scheduled, long sent, long served, long failed, long dropped, Long p50Micros, Long p90Micros, Long p99Micros,
        Long maxMicros, long droppedAtLeastMicros, double maxLagMs, double queueGrowthMs, boolean overloaded, String overloadedBecause) {

    /**
     * The share of scheduled arrivals, in percent, that may fail or be dropped before the row is called overloaded: beyond it,
     * more than one caller in a hundred got no answer, and the p99 is no longer of answers.
     */
    public static final double UNANSWERED_PERCENT = 1;

    /**
     * How much longer, in ms, the run's last quarter of arrivals may wait on average than its first before the row is called
     * overloaded, if they also wait more than twice as long: a queue that grows. JMeter's own scheduling and a collection's
     * pause delay a few arrivals by a few ms here and there, which moves a quarter's mean by far less; a row 1 % short of
     * the rate falls 30 ms further behind over the 3 s between the quarters' middles of a 4 s run. Twice as long keeps the
     * quarters' spread of a slow row, whose answers take tens of ms, from reading as a queue.
     */
    public static final double QUEUE_GROWTH_MS = 10;

    /** One sent arrival: when it was due (epoch ms), how late its request went out and how long from its due time to its answer (µs). */
    public record Sent(long dueMillis, long lagMicros, long intendedMicros, boolean success) {
    }

    /**
     * The figures of a run that scheduled {@code scheduled} arrivals and sent {@code sent}; {@code droppedAtLeastMicros} is the
     * least an arrival left unsent waited: the run's drain after its window, as the run drops an arrival only when it ends
     * at the drain's end.
     */
    public static Arrivals of(long scheduled, List<Sent> sent, long droppedAtLeastMicros) {
        long failed = sent.stream().filter(arrival -> !arrival.success()).count();
        long dropped = Math.max(0, scheduled - sent.size());
        long[] intended = new long[(int) (sent.size() + dropped)];
        for (int i = 0; i < sent.size(); i++) {
            intended[i] = sent.get(i).intendedMicros();
        }
        Arrays.fill(intended, sent.size(), intended.length, droppedAtLeastMicros);
        Arrays.sort(intended);
        boolean any = intended.length > 0;
        double maxLagMs = sent.stream().mapToLong(Sent::lagMicros).max().orElse(0) / 1000.0;
        double firstMs = quarterMeanMs(sent, true);
        double growthMs = quarterMeanMs(sent, false) - firstMs;
        double unansweredPercent = scheduled == 0 ? 0 : (failed + dropped) * 100.0 / scheduled;
        String because = null;
        if (unansweredPercent > UNANSWERED_PERCENT) {
            because = "%s of %s arrivals unanswered (%d failed, %d dropped), above %s %%".formatted(Format.percent(unansweredPercent), scheduled, failed,
                    dropped, (int) UNANSWERED_PERCENT);
        }
        else if (growthMs > Math.max(QUEUE_GROWTH_MS, firstMs)) {
            because = "a queue grew: arrivals waited %s ms on average in the run's last quarter, %s ms in its first".formatted(
                    Math.round(firstMs + growthMs), Math.round(firstMs));
        }
        return new Arrivals(scheduled, sent.size(), sent.size() - failed, failed, dropped, any ? RunStatistics.percentile(intended, 50) : null,
                any ? RunStatistics.percentile(intended, 90) : null, any ? RunStatistics.percentile(intended, 99) : null,
                any ? intended[intended.length - 1] : null, droppedAtLeastMicros, maxLagMs, growthMs, because != null, because);
    }

    /**
     * The mean latency from due time, in ms, of the first or the last quarter of the sent arrivals in order of their due
     * time; 0 for fewer than 4.
     */
    static double quarterMeanMs(List<Sent> sent, boolean first) {
        int quarter = sent.size() / 4;
        if (quarter == 0) {
            return 0;
        }
        List<Sent> byDue = sent.stream().sorted(Comparator.comparingLong(Sent::dueMillis)).toList();
        List<Sent> part = first ? byDue.subList(0, quarter) : byDue.subList(byDue.size() - quarter, byDue.size());
        return part.stream().mapToLong(Sent::intendedMicros).average().orElse(0) / 1000;
    }
}
