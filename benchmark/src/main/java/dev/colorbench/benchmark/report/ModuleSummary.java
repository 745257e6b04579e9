package dev.colorbench.benchmark.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.colorbench.benchmark.results.Arrivals;
import dev.colorbench.testkit.statistics.Interval;
import dev.colorbench.benchmark.results.JMeterResults;
import dev.colorbench.benchmark.results.LatencyHistogram;
import dev.colorbench.benchmark.results.RunStatistics;
import dev.colorbench.benchmark.run.Staleness;
import dev.colorbench.benchmark.results.Spread;

/**
 * One row of the report and one object of {@code summary.json} (fields documented in
 * benchmark/README.md). A figure that could not be measured is {@code null}, never 0. The ratios
 * ({@code percentOfCeiling}, {@code floorRatio}, {@code ratioToReference}) are the medians of the ratios taken within each
 * round, the estimates of their intervals ({@code ...Interval}); {@code twinOf} names the row an A/A twin repeats, and
 * the twin's ratios to it show the run's own noise (docs/measuring.md#rounds-and-intervals). {@code fleet} holds the figures
 * the fleet table works from, each an interval over the rounds taken per round like {@code cpuMicros} (docs/fleet.md); it is
 * missing from a summary.json written before it existed, as in a published reference run.
 */
public record ModuleSummary(
        String module,
        String pattern,
        String stack,
        String role,
        Map<String, String> settings,
        Warmup warmup,
        Map<String, Double> redisCommands,
        double redisCommandsPerRequest,
        Double redisRoundTripsPerRequest,
        Map<String, Double> databaseQueries,
        Double databaseQueriesPerRequest,
        String storeWork,
        Double storeRoundTripsPerRequest,
        Double tpsMedian,
        Double tpsMin,
        Double tpsMax,
        List<Double> tpsPerRepetition,
        Double percentOfCeiling,
        Double floorRatio,
        Double ratioToReference,
        Double ratioToMget,
        Double cpuRatioToMget,
        Integer sourcePostTps,
        Double sourcePostRatioToReference,
        Latency throughputLatency,
        Latency openModelLatency,
        Latency highLoadLatency,
        Spread serverMeanMicrosThroughput,
        Spread serverMeanMicrosOpenModel,
        Spread allocatedBytesPerRequest,
        Cpu cpu,
        Gc gc,
        Staleness.Result staleness,
        String knownStale,
        String tuning,
        long samples,
        long errors,
        double errorPercent,
        Map<String, Long> failures,
        Map<String, Long> closedModelFailures,
        Interval tps,
        Interval cpuMicros,
        Interval ratioToReferenceInterval,
        Interval percentOfCeilingInterval,
        Interval floorRatioInterval,
        String twinOf,
        Interval twinTpsRatio,
        Interval twinCpuRatio,
        int climbingRounds,
        List<Run> runs,
        Fleet.Figures fleet) {

    /**
     * How long the row was warmed up before it was measured, whether it got steady, its last windows'
     * requests per second, the milliseconds its JIT's compilations took in them (elapsed, a compiler thread's waits for a
     * core included: Micrometer's {@code jvm.compilation.time}, not CPU), and how many of its requests
     * failed (in no figure, but shown).
     */
    public record Warmup(double seconds, boolean steady, List<Double> lastWindowsTps, double jitMillis, long requests, long errors) {
    }

    /**
     * What one request cost the CPU in the closed-model runs, in microseconds (median and range of the repetitions): the
     * module's JVM, the store it reads, both together, and JMeter; and the requests one core would serve a second at the
     * cost of both together. Counted from outside the processes, so it leaves out what others took of the cores, not how
     * fast the cores were: another machine's µs differ, its ratios between rows less (docs/measuring.md).
     */
    public record Cpu(Spread moduleMicros, Spread storeMicros, Spread totalMicros, Spread jmeterMicros, Double requestsPerCoreSecond) {

        static Cpu of(List<Run> runs) {
            Spread total = Spread.of(runs.stream().map(run -> run.moduleCpuMicros() == null || run.storeCpuMicros() == null ? null
                    : run.moduleCpuMicros() + run.storeCpuMicros()).toList());
            return new Cpu(Spread.of(runs.stream().map(Run::moduleCpuMicros).toList()), Spread.of(runs.stream().map(Run::storeCpuMicros).toList()),
                    total, Spread.of(runs.stream().map(Run::jmeterCpuMicros).toList()),
                    total == null || total.median() <= 0 ? null : 1e6 / total.median());
        }
    }

    /**
     * Garbage collection during the closed-model runs: pauses per second and paused milliseconds
     * per second (median and range of the repetitions), and the mean pause over all of them.
     */
    public record Gc(Spread pausesPerSecond, Spread pauseMillisPerSecond, Double meanPauseMillis) {
    }

    /**
     * Latency over the pooled runs of one model: JMeter's, in whole milliseconds, and the module's own, in microseconds
     * (from its histogram, null where it could not be read), both the time of the request alone; {@code ratePerSecond} is
     * what was achieved, {@code offeredPerSecond} what the open model asked for (null for the closed model). {@code arrivals}
     * (null for the closed model) says what became of the open model's arrivals, their latency from the time each was due,
     * and whether the row kept up with them (docs/measuring.md#latency-at-a-share-of-throughput).
     */
    public record Latency(Double meanMs, Long p50Ms, Long p95Ms, Long p99Ms, Long maxMs, long samples, long errors, Double ratePerSecond,
            Double offeredPerSecond, Double p50Micros, Double p90Micros, Double p99Micros, Double p999Micros, Arrivals arrivals) {

        static Latency of(RunStatistics statistics, Double ratePerSecond) {
            return of(statistics, ratePerSecond, null, null, null);
        }

        /**
         * The percentiles ("p50", "p90", "p99") at which the latency from the due time is below the module's own. A request
         * waits from its due time at least as long as the module takes to serve it, and both are recorded to the microsecond,
         * so one here means the two histograms were not of the same requests.
         */
        public List<String> dueBelowService() {
            List<String> below = new ArrayList<>();
            if (arrivals == null) {
                return below;
            }
            if (arrivals.p50Micros() != null && p50Micros != null && arrivals.p50Micros() < p50Micros) {
                below.add("p50");
            }
            if (arrivals.p90Micros() != null && p90Micros != null && arrivals.p90Micros() < p90Micros) {
                below.add("p90");
            }
            if (arrivals.p99Micros() != null && p99Micros != null && arrivals.p99Micros() < p99Micros) {
                below.add("p99");
            }
            return below;
        }

        static Latency of(RunStatistics statistics, Double ratePerSecond, Double offeredPerSecond, LatencyHistogram module, Arrivals arrivals) {
            boolean read = module != null && module.requests() > 0;
            return new Latency(statistics.meanMs(), statistics.p50Ms(), statistics.p95Ms(), statistics.p99Ms(), statistics.maxMs(),
                    statistics.samples(), statistics.errors(), ratePerSecond, offeredPerSecond, read ? module.percentile(50) : null,
                    read ? module.percentile(90) : null, read ? module.percentile(99) : null, read ? module.percentile(99.9) : null, arrivals);
        }
    }

    /**
     * One measured thread group. The server figures are the module's own, between the readings
     * around the run; {@code serverMeanMicros} is {@code null} when the module counted other requests
     * than JMeter's (a reading then caught part of another run). The CPU figures are per request of the run, and so are
     * the bytes Redis read from its clients ({@code bytesToRedis}) and wrote to them ({@code bytesFromRedis}), null for a
     * row without Redis.
     */
    public record Run(String phase, int repetition, long samples, long errors, double tps, List<Integer> perSecond,
            Long serverRequests, Double serverMeanMicros, Double allocatedBytesPerRequest, Long gcPauses, Double gcPauseMillis,
            Double moduleCpuMicros, Double storeCpuMicros, Double jmeterCpuMicros, Double climbPercent, Double bytesToRedis, Double bytesFromRedis) {
    }
}
