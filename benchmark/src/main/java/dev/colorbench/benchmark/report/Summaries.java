package dev.colorbench.benchmark.report;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.modules.Role;
import dev.colorbench.benchmark.modules.Store;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.plan.Phase;
import dev.colorbench.benchmark.plan.RunKey;
import dev.colorbench.benchmark.plan.Schedule;
import dev.colorbench.benchmark.results.Arrivals;
import dev.colorbench.testkit.statistics.Interval;
import dev.colorbench.benchmark.results.JMeterResults;
import dev.colorbench.benchmark.results.LatencyHistogram;
import dev.colorbench.benchmark.results.RunStatistics;
import dev.colorbench.benchmark.results.Sample;
import dev.colorbench.benchmark.results.ServerFigures;
import dev.colorbench.benchmark.results.Spread;
import dev.colorbench.testkit.statistics.Statistics;
import dev.colorbench.benchmark.run.Staleness;
import dev.colorbench.benchmark.run.SteadyState;
import dev.colorbench.benchmark.run.Verification;

/**
 * Builds every row's {@link ModuleSummary} from what was verified and measured: the figures of each
 * row first, then each summary once, with its ratios to the ceiling and to the reference row.
 */
final class Summaries {

    /** How a stock variant's {@code tuning} starts: the settings that put back what a stock application does. */
    static final String STOCK = "stock: ";

    /**
     * The row the steadier ratios are taken against: one MGET, one round trip. A ratio to the source post's loop (148 round
     * trips) follows the loopback round trip of the day; a ratio to one round trip much less, and a CPU ratio not at all.
     */
    static final String MGET = "template-mget";

    private Summaries() {
    }

    /** Every row's summary, and the run's one floor, which each row's {@code x floor} divides by. */
    record Rows(List<ModuleSummary> summaries, Floor floor) {
    }

    static Rows of(BenchmarkSettings settings, List<Target> targets, Verification verification, List<SteadyState.Warmup> warmups,
            List<Staleness.Result> staleness, JMeterResults results) {
        List<Figures> figures = targets.stream().map(target -> Figures.of(settings, target, results)).toList();
        Optional<Figures> ceiling = figures.stream()
                .filter(row -> row.target().module().role() == Role.CEILING && row.target().properties().isEmpty()).findFirst();
        Optional<Figures> reference = figures.stream().filter(row -> row.target().id().equals(settings.reference())).findFirst();
        Optional<Figures> mget = figures.stream().filter(row -> row.target().id().equals(MGET)).findFirst();
        Fleet.Tables fleet = new Fleet.Tables(settings::forkOf);
        figures.forEach(row -> row.fleet(fleet));
        Measures measures = new Measures(rounds(figures, Figures::tpsByRound, settings), rounds(figures, Figures::cpuByRound, settings), fleet);
        // measured by the harness in each round, not taken from a row: the same floor whatever rows run (docs/measuring.md#the-floor)
        Floor floor = Floor.of(ceiling.map(row -> row.target().id()).orElse(null), ceiling.map(Figures::cpuByRound).orElse(Map.of()), results.floor(),
                measures.cpu());
        Map<Integer, Double> floorByRound = floor.byRound();
        return new Rows(figures.stream().map(row -> row.summary(verification.of(row.target().id()), warmupOf(warmups, row.target()),
                staleness.stream().filter(result -> result.target().equals(row.target().id())).findFirst().orElse(null), ceiling, reference,
                mget, figures.stream().filter(other -> other.target().id().equals(row.target().twinOf())).findFirst(), results, floorByRound,
                measures)).toList(), floor);
    }

    /** Every row's throughput and CPU per request, round by round: each figure's interval and each ratio come from these. */
    private record Measures(Statistics.Rounds tps, Statistics.Rounds cpu, Fleet.Tables fleet) {
    }

    private static Statistics.Rounds rounds(List<Figures> figures, java.util.function.Function<Figures, Map<Integer, Double>> figure,
            BenchmarkSettings settings) {
        Map<String, Map<Integer, Double>> byRow = new java.util.LinkedHashMap<>();
        figures.forEach(row -> byRow.put(row.target().id(), figure.apply(row)));
        return Statistics.rounds(byRow, settings::forkOf);
    }

    private static ModuleSummary.Warmup warmupOf(List<SteadyState.Warmup> warmups, Target target) {
        return warmups.stream().filter(warmup -> warmup.target().equals(target.id())).findFirst()
                .map(warmup -> new ModuleSummary.Warmup(warmup.seconds(), warmup.steady(), warmup.lastWindows(), warmup.jitMillis(), warmup.requests(),
                        warmup.errors())).orElse(null);
    }

    /** One row's figures over its measured runs. */
    private record Figures(Target target, List<ModuleSummary.Run> runs, Spread tps, List<Double> tpsPerRepetition,
            RunStatistics closed, Map<Phase, RunStatistics> open, Map<Phase, Double> offered, Map<Phase, LatencyHistogram> openHistograms,
            Map<Phase, Arrivals> arrivals,
            Spread serverThroughput,
            Spread serverOpenModel, Spread allocation, ModuleSummary.Cpu cpu, ModuleSummary.Gc gc, java.util.function.IntUnaryOperator forkOf) {

        /** The open-model runs of the headline: half and 80 % of the row's throughput, one run each. */
        private static final List<Phase> SHARES = List.of(Phase.HALF, Phase.EIGHTY);

        static Figures of(BenchmarkSettings settings, Target target, JMeterResults results) {
            List<ModuleSummary.Run> runs = new ArrayList<>();
            List<Sample> closedSamples = new ArrayList<>();
            for (int repetition = 1; repetition <= settings.repetitions(); repetition++) {
                RunKey key = new RunKey(target.id(), Phase.THROUGHPUT, repetition);
                List<Sample> samples = results.samples(key);
                runs.add(run(key, RunStatistics.of(samples, settings.rampupSeconds() * 1000L), results.server(key)));
                closedSamples.addAll(samples);
            }
            Map<Phase, RunStatistics> open = new EnumMap<>(Phase.class);
            Map<Phase, LatencyHistogram> histograms = new EnumMap<>(Phase.class);
            Map<Phase, Arrivals> arrivals = new EnumMap<>(Phase.class);
            Spread measuredTps = Spread.of(measured(runs, Phase.THROUGHPUT).stream().map(run -> run.samples() == 0 ? null : run.tps()).toList());
            for (Phase share : SHARES) {
                if (measuredTps != null && Schedule.sameStep(settings, measuredTps.median(), share)) {
                    // the cap made this step the one before it: not run again (plan.Schedule#atShares)
                    continue;
                }
                RunKey key = new RunKey(target.id(), share, 1);
                RunStatistics statistics = RunStatistics.of(results.samples(key), 0);
                ServerFigures server = results.server(key);
                runs.add(run(key, statistics, server));
                open.put(share, statistics);
                Arrivals taken = results.arrivals(key, Schedule.DRAIN_SECONDS * 1_000_000L);
                if (taken != null) {
                    arrivals.put(share, taken);
                }
                if (server.latency() != null) {
                    histograms.put(share, server.latency());
                }
            }
            List<ModuleSummary.Run> closedRuns = measured(runs, Phase.THROUGHPUT);
            List<Double> tps = closedRuns.stream().map(run -> run.samples() == 0 ? null : run.tps()).toList();
            Spread closedTps = Spread.of(tps);
            Map<Phase, Double> offered = new EnumMap<>(Phase.class);
            if (closedTps != null) {
                SHARES.forEach(share -> offered.put(share, (double) Schedule.offered(settings, closedTps.median(), share)));
            }
            return new Figures(target, List.copyOf(runs), closedTps, tps, RunStatistics.of(closedSamples, 0), open, offered, histograms, arrivals,
                    Spread.of(closedRuns.stream().map(ModuleSummary.Run::serverMeanMicros).toList()),
                    Spread.of(measured(runs, Phase.HALF).stream().map(ModuleSummary.Run::serverMeanMicros).toList()),
                    Spread.of(closedRuns.stream().map(ModuleSummary.Run::allocatedBytesPerRequest).toList()),
                    ModuleSummary.Cpu.of(closedRuns), gc(closedRuns, settings.durationSeconds()), settings::forkOf);
        }

        private static ModuleSummary.Run run(RunKey key, RunStatistics statistics, ServerFigures server) {
            boolean serverSawTheRun = server.requests() != null && server.requests() == statistics.samples();
            return new ModuleSummary.Run(key.phase().label(), key.repetition(), statistics.samples(), statistics.errors(), statistics.tps(),
                    statistics.perSecond(), server.requests(), serverSawTheRun ? server.meanMicros() : null,
                    server.allocatedBytesPerRequest(), server.gcPauses(), server.gcPauseMillis(),
                    perRequest(server.moduleCpuSeconds(), statistics.samples()), perRequest(server.storeCpuSeconds(), statistics.samples()),
                    perRequest(server.jmeterCpuSeconds(), statistics.samples()), statistics.climbPercent(),
                    ServerFigures.perRequest(server.storeInBytes(), statistics.samples()), ServerFigures.perRequest(server.storeOutBytes(), statistics.samples()));
        }

        /**
         * JMeter's and the module's latency at one share of the row's throughput, with what was offered and achieved, and what
         * became of the arrivals: their latency from the time each was due, and whether the row kept up.
         */
        ModuleSummary.Latency openLatency(Phase share) {
            RunStatistics statistics = open.get(share);
            if (statistics == null) {
                // one step with the one before it, at the open model's cap: named by its rate, with no figure of its own
                return new ModuleSummary.Latency(null, null, null, null, null, 0, 0, null, offered.get(share), null, null, null, null, null);
            }
            return ModuleSummary.Latency.of(statistics, statistics.samples() == 0 ? null : statistics.tps(), offered.get(share), openHistograms.get(share),
                    arrivals.get(share));
        }

        /** Microseconds per request, or null when either is unknown. */
        static Double perRequest(Double seconds, long requests) {
            return seconds == null || requests <= 0 ? null : seconds * 1e6 / requests;
        }

        private static ModuleSummary.Gc gc(List<ModuleSummary.Run> runs, int seconds) {
            List<ModuleSummary.Run> read = runs.stream().filter(run -> run.gcPauses() != null && run.gcPauseMillis() != null).toList();
            long pauses = read.stream().mapToLong(ModuleSummary.Run::gcPauses).sum();
            double millis = read.stream().mapToDouble(ModuleSummary.Run::gcPauseMillis).sum();
            return new ModuleSummary.Gc(Spread.of(read.stream().map(run -> run.gcPauses() / (double) seconds).toList()),
                    Spread.of(read.stream().map(run -> run.gcPauseMillis() / seconds).toList()), pauses == 0 ? null : millis / pauses);
        }

        private static List<ModuleSummary.Run> measured(List<ModuleSummary.Run> runs, Phase phase) {
            return runs.stream().filter(run -> run.phase().equals(phase.label())).toList();
        }

        Double tpsMedian() {
            return tps == null ? null : tps.median();
        }

        /** The CPU one request cost the module and its store together, in µs, median of the repetitions. */
        Double cpuMedian() {
            return cpu.totalMicros() == null ? null : cpu.totalMicros().median();
        }

        ModuleSummary summary(Verification.Check check, ModuleSummary.Warmup warmup, Staleness.Result staleness, Optional<Figures> ceiling,
                Optional<Figures> reference, Optional<Figures> mget, Optional<Figures> twinOf, JMeterResults results, Map<Integer, Double> runFloor,
                Measures measures) {
            String id = target.id();
            Interval ofCeiling = ceiling.map(row -> measures.tps().ratio(id, row.target().id())).map(ratio -> ratio.times(100)).orElse(null);
            Interval ofReference = reference.map(row -> measures.tps().ratio(id, row.target().id())).orElse(null);
            Interval floor = runFloor.isEmpty() ? null : measures.cpu().ratio(id, runFloor);
            long samples = closed.samples() + open.values().stream().mapToLong(RunStatistics::samples).sum();
            long errors = closed.errors() + open.values().stream().mapToLong(RunStatistics::errors).sum();
            Integer sourcePost = target.module().sourcePostTps();
            Integer referenceSourcePost = reference.map(row -> row.target().module().sourcePostTps()).orElse(null);
            return new ModuleSummary(target.id(), target.module().pattern(), target.module().stack(), target.module().role().toString(),
                    target.properties(), warmup, check.redis().commands(), check.redis().commandsPerRequest(), check.redis().roundTrips(),
                    check.database() == null ? null : check.database().commands(),
                    check.database() == null ? null : check.database().commandsPerRequest(), check.describeWork(), check.roundTrips(),
                    tpsMedian(), tps == null ? null : tps.min(), tps == null ? null : tps.max(), tpsPerRepetition,
                    ofCeiling == null ? null : ofCeiling.estimate(),
                    floor == null ? null : floor.estimate(),
                    ofReference == null ? null : ofReference.estimate(),
                    mget.map(row -> measures.tps().ratio(id, row.target().id())).map(Interval::estimate).orElse(null),
                    mget.map(row -> measures.cpu().ratio(id, row.target().id())).map(Interval::estimate).orElse(null),
                    sourcePost, sourcePost == null || referenceSourcePost == null ? null : sourcePost / (double) referenceSourcePost,
                    ModuleSummary.Latency.of(closed, tpsMedian()), openLatency(Phase.HALF), openLatency(Phase.EIGHTY),
                    serverThroughput, serverOpenModel, allocation, cpu, gc, staleness, target.module().knownStale(), tuning(target), samples, errors, samples == 0 ? 0 : errors * 100.0 / samples,
                    results.failures(target.id()), closedModelFailures(results),
                    measures.tps().figure(id), measures.cpu().figure(id), ofReference, ofCeiling, floor,
                    twinOf.map(row -> row.target().id()).orElse(null),
                    twinOf.map(row -> measures.tps().ratio(id, row.target().id())).orElse(null),
                    twinOf.map(row -> measures.cpu().ratio(id, row.target().id())).orElse(null),
                    (int) runs.stream().filter(run -> run.phase().equals(Phase.THROUGHPUT.label()) && run.climbPercent() != null
                            && run.climbPercent() > RunStatistics.CLIMB_PERCENT).count(),
                    runs, measures.fleet().figures(id));
        }

        /**
         * The fleet table's figures, each taken per round: requests a second per application core and per Redis core, bytes
         * to and from Redis. The Redis side only for a row on Redis: a database row's store CPU is PostgreSQL's.
         */
        void fleet(Fleet.Tables tables) {
            boolean redis = target.module().store() == Store.REDIS;
            tables.add(target.id(), byRound(ModuleSummary.Run::moduleCpuMicros), redis ? storeByRound() : null,
                    byRound(ModuleSummary.Run::bytesToRedis), byRound(ModuleSummary.Run::bytesFromRedis));
        }

        /** Each round's closed-model throughput, by round. */
        Map<Integer, Double> tpsByRound() {
            return byRound(run -> run.samples() > 0 ? run.tps() : null);
        }

        /** Each round's CPU per request, module and store together, in µs, by round. */
        Map<Integer, Double> cpuByRound() {
            return byRound(run -> run.moduleCpuMicros() == null || run.storeCpuMicros() == null ? null : run.moduleCpuMicros() + run.storeCpuMicros());
        }

        /** Each round's store CPU per request, in µs, by round. */
        Map<Integer, Double> storeByRound() {
            return byRound(ModuleSummary.Run::storeCpuMicros);
        }

        /** One figure of each closed-model round, by round; a round without it is left out, not counted as 0. */
        private Map<Integer, Double> byRound(java.util.function.Function<ModuleSummary.Run, Double> figure) {
            Map<Integer, Double> rounds = new java.util.TreeMap<>();
            measured(runs, Phase.THROUGHPUT).forEach(run -> {
                Double value = figure.apply(run);
                if (value != null) {
                    rounds.put(run.repetition(), value);
                }
            });
            return rounds;
        }

        /** Why the closed-model requests failed, with how often, over the repetitions: the figures the run's check weighs. */
        private Map<String, Long> closedModelFailures(JMeterResults results) {
            Map<String, Long> reasons = new java.util.TreeMap<>();
            runs.stream().filter(run -> run.phase().equals(Phase.THROUGHPUT.label())).forEach(run -> results
                    .failures(new dev.colorbench.benchmark.plan.RunKey(target.id(), Phase.THROUGHPUT, run.repetition()))
                    .forEach((reason, count) -> reasons.merge(reason, count, Long::sum)));
            return reasons;
        }

        /**
         * The module's own tuning, and a variant's settings, which are tuning too; a stock variant's settings after
         * {@link #STOCK}, with what the module tunes.
         */
        private static String tuning(Target target) {
            List<String> settings = new ArrayList<>();
            target.properties().forEach((key, value) -> settings.add(key + "=" + value));
            if (target.module().isStock(target)) {
                return STOCK + String.join("; ", settings) + (target.module().tuning() == null ? "" : " (the module: " + target.module().tuning() + ")");
            }
            List<String> parts = new ArrayList<>();
            if (target.module().tuning() != null) {
                parts.add(target.module().tuning());
            }
            parts.addAll(settings);
            return parts.isEmpty() ? null : String.join("; ", parts);
        }

        private static Double ratio(Double value, Double base, double scale) {
            return value == null || base == null || base <= 0 ? null : value * scale / base;
        }
    }

    /**
     * The share of a row's closed-model requests that may be answered 503 (its store did not answer within the
     * contract's time-out) before the run fails. A 503 is the contract's answer to a slow store, not a defect: on a
     * machine starved of CPU a database statement can pass its 500 ms time-out once in tens of thousands of requests.
     * One in a thousand is such a tail; more says the pattern cannot keep its store's time-outs (docs/measuring.md#what-one-run-does).
     */
    static final double STORE_UNAVAILABLE_PERCENT = 0.1;

    /**
     * Rows in which something failed, for the check: each measured run must have samples, no answer anywhere was a 200 with
     * a wrong body, the closed model's 503s (store unavailable) stay within {@value #STORE_UNAVAILABLE_PERCENT} % of its
     * requests, and its other errors within the threshold (none by default). The 503s within that share are figures of
     * the row, counted with their reason in summary.json and the report. Requests the open model saw fail are figures of
     * the row too, shown beside its latency, not faults of the run.
     */
    static List<String> problems(List<ModuleSummary> summaries, double errorThresholdPercent) {
        List<String> problems = new ArrayList<>();
        for (ModuleSummary summary : summaries) {
            summary.runs().stream().filter(run -> run.samples() == 0).forEach(run -> problems.add(
                    "module %s: %s run %d recorded no sample".formatted(summary.module(), run.phase(), run.repetition())));
            ModuleSummary.Latency closed = summary.throughputLatency();
            long unavailable = unavailable(summary.closedModelFailures());
            long other = closed.errors() - unavailable;
            double otherPercent = closed.samples() == 0 ? 0 : other * 100.0 / closed.samples();
            double unavailablePercent = closed.samples() == 0 ? 0 : unavailable * 100.0 / closed.samples();
            if (other > 0 && otherPercent > errorThresholdPercent) {
                problems.add("module %s: %.2f %% errors in the closed model (%d of %d samples), above the threshold of %s %%; first reasons: %s"
                        .formatted(summary.module(), otherPercent, other, closed.samples(), errorThresholdPercent,
                                summary.closedModelFailures().entrySet().stream().filter(reason -> !reason.getKey().startsWith("503"))
                                        .limit(3).map(Objects::toString).toList()));
            }
            if (unavailablePercent > STORE_UNAVAILABLE_PERCENT) {
                problems.add("module %s: %.2f %% of the closed model's requests answered 503, store unavailable (%d of %d), above %s %%"
                        .formatted(summary.module(), unavailablePercent, unavailable, closed.samples(), STORE_UNAVAILABLE_PERCENT));
            }
            long wrong = summary.failures().entrySet().stream().filter(reason -> reason.getKey().startsWith("200")).mapToLong(Map.Entry::getValue).sum();
            if (wrong > 0) {
                problems.add("module %s: %d answers were 200 with a wrong body".formatted(summary.module(), wrong));
            }
        }
        return problems;
    }

    /** The requests answered 503 (the store away, slow or refusing: the contract's answer), of a row's failures by reason. */
    static long unavailable(Map<String, Long> failures) {
        return failures.entrySet().stream().filter(reason -> reason.getKey().startsWith("503")).mapToLong(Map.Entry::getValue).sum();
    }
}
