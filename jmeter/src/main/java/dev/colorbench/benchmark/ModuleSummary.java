package dev.colorbench.benchmark;

import java.util.List;
import java.util.Map;

/** One module's line of the report, and one object of summary.json (fields documented in README.md). */
record ModuleSummary(
        String module,
        String pattern,
        String stack,
        int port,
        Map<String, Double> redisCommands,
        double redisCommandsPerRequest,
        Double redisRoundTripsPerRequest,
        double tpsMedian,
        double tpsMin,
        double tpsMax,
        List<Double> tpsPerRepetition,
        Double percentOfCeiling,
        Double ratioToLoop,
        Integer seedTps2019,
        Double seedRatioToLoop2019,
        Latency throughputLatency,
        Latency openModelLatency,
        ServerTiming.MeanMicros serverMeanMicrosThroughput,
        ServerTiming.MeanMicros serverMeanMicrosOpenModel,
        long samples,
        long errors,
        double errorPercent,
        List<Run> runs) {

    /** Latency in milliseconds over the pooled repetitions of one model; {@code ratePerSecond} is what was achieved. */
    record Latency(double meanMs, long p50Ms, long p95Ms, long p99Ms, long maxMs, long samples, long errors, double ratePerSecond) {

        static Latency of(RunStatistics statistics) {
            return new Latency(statistics.meanMs(), statistics.p50Ms(), statistics.p95Ms(), statistics.p99Ms(), statistics.maxMs(),
                    statistics.samples(), statistics.errors(), statistics.tps());
        }
    }

    /**
     * One measured thread group; {@code perSecond} counts the samples started in each second.
     * {@code serverRequests} and {@code serverMeanMicros} are the module's own count and mean time
     * of {@code GET /colors} over the run, {@code null} where they are missing.
     */
    record Run(String phase, int repetition, long samples, long errors, double tps, List<Integer> perSecond, Long serverRequests,
            Double serverMeanMicros) {
    }
}
