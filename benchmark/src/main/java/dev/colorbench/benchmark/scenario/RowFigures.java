package dev.colorbench.benchmark.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.plan.Phase;
import dev.colorbench.benchmark.plan.RunKey;
import dev.colorbench.benchmark.report.Fleet;
import dev.colorbench.testkit.statistics.Interval;
import dev.colorbench.benchmark.results.JMeterResults;
import dev.colorbench.benchmark.results.RunStatistics;
import dev.colorbench.benchmark.results.Sample;
import dev.colorbench.benchmark.results.ServerFigures;
import dev.colorbench.benchmark.results.Spread;
import dev.colorbench.testkit.statistics.Statistics;

/**
 * One row's closed-model figures in one JMeter run of a scenario: throughput over the repetitions,
 * the module's own microseconds per request (missing where its count differs from JMeter's), the CPU microseconds
 * one request cost the module and its store together, and each apart,
 * latency over all samples, and errors with why they failed ({@link FailedRequests#kinds}); the bytes one request sent to
 * Redis and got back from it (what Redis read from and wrote to its clients, summed over a cluster's masters; null without
 * Redis), and the fleet table's figures over the repetitions ({@link Fleet.Spreads}: {@code Fleet.Row.of(label, fleet())}
 * puts the row in a fleet table).
 */
record RowFigures(String target, Spread tps, Spread serverMicros, Spread cpuMicros, Spread moduleCpuMicros, Spread storeCpuMicros,
        RunStatistics latency, long samples, long errors, Map<String, Long> failures, Spread bytesToRedis, Spread bytesFromRedis,
        Fleet.Spreads fleet) {

    static RowFigures of(String target, JMeterResults results, BenchmarkSettings settings) {
        return of(target, List.of(results), settings);
    }

    /** The same over the runs of several forks, each of {@code settings}' repetitions: every fork's runs count alike. */
    static RowFigures of(String target, List<JMeterResults> forks, BenchmarkSettings settings) {
        List<Double> tps = new ArrayList<>();
        List<Double> micros = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        List<Double> moduleCpu = new ArrayList<>();
        List<Double> storeCpu = new ArrayList<>();
        List<Double> toRedis = new ArrayList<>();
        List<Double> fromRedis = new ArrayList<>();
        List<Sample> all = new ArrayList<>();
        Map<String, Long> reasons = new TreeMap<>();
        for (int round = 0; round < forks.size() * settings.repetitions(); round++) {
            JMeterResults results = forks.get(round / settings.repetitions());
            RunKey key = new RunKey(target, Phase.THROUGHPUT, round % settings.repetitions() + 1);
            List<Sample> samples = results.samples(key);
            RunStatistics run = RunStatistics.of(samples, settings.rampupSeconds() * 1000L);
            ServerFigures server = results.server(key);
            tps.add(samples.isEmpty() ? null : run.tps());
            micros.add(server.requests() != null && server.requests() == run.samples() ? server.meanMicros() : null);
            cpu.add(server.moduleCpuSeconds() == null || server.storeCpuSeconds() == null || run.samples() == 0 ? null
                    : (server.moduleCpuSeconds() + server.storeCpuSeconds()) * 1e6 / run.samples());
            moduleCpu.add(server.moduleCpuSeconds() == null || run.samples() == 0 ? null : server.moduleCpuSeconds() * 1e6 / run.samples());
            storeCpu.add(server.storeCpuSeconds() == null || run.samples() == 0 ? null : server.storeCpuSeconds() * 1e6 / run.samples());
            toRedis.add(ServerFigures.perRequest(server.storeInBytes(), run.samples()));
            fromRedis.add(ServerFigures.perRequest(server.storeOutBytes(), run.samples()));
            all.addAll(samples);
            results.failures(key).forEach((reason, count) -> reasons.merge(reason, count, Long::sum));
        }
        RunStatistics latency = RunStatistics.of(all, 0);
        return new RowFigures(target, Spread.of(tps), Spread.of(micros), Spread.of(cpu), Spread.of(moduleCpu), Spread.of(storeCpu), latency, latency.samples(), latency.errors(),
                FailedRequests.kinds(reasons), Spread.of(toRedis), Spread.of(fromRedis), Fleet.Spreads.ofRuns(moduleCpu, storeCpu, toRedis, fromRedis));
    }

    /**
     * Each round's CPU per request, module and store, of a row run in forks: rounds numbered across the forks, fork by fork
     * ({@link #forkOf}), as the one statistics core takes them.
     */
    static Map<Integer, Double> cpuByRound(String target, List<JMeterResults> forks, BenchmarkSettings settings) {
        Map<Integer, Double> byRound = new TreeMap<>();
        for (int round = 0; round < forks.size() * settings.repetitions(); round++) {
            RunKey key = new RunKey(target, Phase.THROUGHPUT, round % settings.repetitions() + 1);
            JMeterResults results = forks.get(round / settings.repetitions());
            RunStatistics run = RunStatistics.of(results.samples(key), settings.rampupSeconds() * 1000L);
            ServerFigures server = results.server(key);
            if (server.moduleCpuSeconds() != null && server.storeCpuSeconds() != null && run.samples() > 0) {
                byRound.put(round + 1, (server.moduleCpuSeconds() + server.storeCpuSeconds()) * 1e6 / run.samples());
            }
        }
        return byRound;
    }

    /** Every row's {@link #cpuByRound}, as the one statistics core judges them: figures, paired ratios, level or apart. */
    static Statistics.Rounds cpuRounds(List<Target> targets, List<JMeterResults> forks, BenchmarkSettings settings) {
        Map<String, Map<Integer, Double>> cpu = new LinkedHashMap<>();
        targets.forEach(target -> cpu.put(target.id(), cpuByRound(target.id(), forks, settings)));
        return Statistics.rounds(cpu, forkOf(settings.repetitions()));
    }

    /** {@code 412 (398-427)}: a figure and its 95 % interval, or "missing". */
    static String interval(Interval figure) {
        return figure == null ? "missing"
                : "%s (%s-%s)".formatted(Format.grouped(figure.estimate()), Format.grouped(figure.low()), Format.grouped(figure.high()));
    }

    /**
     * {@code row}'s CPU per request against {@code base}'s: "level" where the interval of their ratio, round by round, holds 1
     * (or the run cannot separate them: one fork), as the headline ranks rows; else the ratio with its interval; "missing"
     * without both.
     */
    static String against(Statistics.Rounds cpu, String row, String base) {
        Interval ratio = cpu.ratio(row, base);
        if (ratio == null) {
            return "missing";
        }
        String figure = "x %s (%s-%s)".formatted(Format.ratio(ratio.estimate()), Format.ratio(ratio.low()), Format.ratio(ratio.high()));
        return cpu.apart(row, base) ? figure : "level, " + figure;
    }

    /**
     * The rows from cheapest to dearest CPU per request, a row written "level with it" where the interval of its ratio to the
     * row before, round by round, holds 1: the headline's rule ({@link Statistics.Rounds#apart}).
     */
    static String order(Statistics.Rounds cpu) {
        return order(cpu, cpu.rows());
    }

    /** The same, of {@code rows} alone: those measured on one server, say. */
    static String order(Statistics.Rounds cpu, List<String> among) {
        List<String> rows = among.stream().filter(row -> cpu.figure(row) != null)
                .sorted(java.util.Comparator.comparingDouble((String row) -> cpu.figure(row).estimate())).toList();
        List<String> words = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            boolean level = i > 0 && !cpu.apart(rows.get(i - 1), rows.get(i));
            words.add((i == 0 ? "" : level ? "level with it " : "then ") + rows.get(i));
        }
        return String.join(", ", words);
    }

    /** The fork, from 1, of a round numbered across forks of {@code repetitions} rounds each. */
    static java.util.function.IntUnaryOperator forkOf(int repetitions) {
        return round -> (round - 1) / repetitions + 1;
    }

    Double tpsMedian() {
        return tps == null ? null : tps.median();
    }

    /** {@code 6,512 (6,401-6,580)}, or "missing". */
    static String spread(Spread spread) {
        return spread == null ? "missing"
                : "%s (%s-%s)".formatted(Format.grouped(spread.median()), Format.grouped(spread.min()), Format.grouped(spread.max()));
    }

    /** {@code 0 % failed}, or the share and why: {@code 1.4 % failed (12 refused by the module ...)}. */
    String failed() {
        if (errors == 0) {
            return "0 % failed";
        }
        return "%s %% failed (%s)".formatted(Format.number(Math.round(errors * 1000.0 / samples) / 10.0),
                failures.isEmpty() ? "unknown" : FailedRequests.counted(failures));
    }

    /** {@link #failed()} after {@code separator} if a request failed, else nothing: for a cell that shows failures only when there are some. */
    String failedIfAny(String separator) {
        return errors == 0 ? "" : separator + failed();
    }

    /**
     * What fails the build in a scenario: a run without samples, or a 200 with a wrong body. A request that failed otherwise (a
     * 503 when the store did not answer within the module's command timeout on two cores still compiling, a timeout under
     * a thousand clients) is what the module is built to do under that condition: a figure of its cell ({@link #failed()}).
     */
    List<String> faults(String scenario, String condition) {
        List<String> faults = new ArrayList<>();
        if (tps == null || samples == 0) {
            faults.add("%s, %s: module %s recorded no sample".formatted(scenario, condition, target));
        }
        if (failures.containsKey(FailedRequests.WRONG_ANSWER)) {
            faults.add("%s, %s: module %s answered 200 with a wrong body %d times".formatted(scenario, condition, target,
                    failures.get(FailedRequests.WRONG_ANSWER)));
        }
        return faults;
    }
}
