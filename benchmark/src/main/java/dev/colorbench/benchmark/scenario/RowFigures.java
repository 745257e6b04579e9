package dev.colorbench.benchmark.scenario;

import java.util.ArrayList;
import java.util.List;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.plan.Phase;
import dev.colorbench.benchmark.plan.RunKey;
import dev.colorbench.benchmark.results.JMeterResults;
import dev.colorbench.benchmark.results.RunStatistics;
import dev.colorbench.benchmark.results.Sample;
import dev.colorbench.benchmark.results.ServerFigures;
import dev.colorbench.benchmark.results.Spread;

/**
 * One row's closed-model figures in one JMeter run of a scenario: throughput over the repetitions,
 * the module's own microseconds per request (missing where its count differs from JMeter's), the CPU microseconds
 * one request cost the module and its store together,
 * latency over all samples, and errors.
 */
record RowFigures(String target, Spread tps, Spread serverMicros, Spread cpuMicros, RunStatistics latency, long samples, long errors) {

    static RowFigures of(String target, JMeterResults results, BenchmarkSettings settings) {
        List<Double> tps = new ArrayList<>();
        List<Double> micros = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        List<Sample> all = new ArrayList<>();
        for (int repetition = 1; repetition <= settings.repetitions(); repetition++) {
            RunKey key = new RunKey(target, Phase.THROUGHPUT, repetition);
            List<Sample> samples = results.samples(key);
            RunStatistics run = RunStatistics.of(samples, settings.rampupSeconds() * 1000L);
            ServerFigures server = results.server(key);
            tps.add(samples.isEmpty() ? null : run.tps());
            micros.add(server.requests() != null && server.requests() == run.samples() ? server.meanMicros() : null);
            cpu.add(server.moduleCpuSeconds() == null || server.storeCpuSeconds() == null || run.samples() == 0 ? null
                    : (server.moduleCpuSeconds() + server.storeCpuSeconds()) * 1e6 / run.samples());
            all.addAll(samples);
        }
        RunStatistics latency = RunStatistics.of(all, 0);
        return new RowFigures(target, Spread.of(tps), Spread.of(micros), Spread.of(cpu), latency, latency.samples(), latency.errors());
    }

    Double tpsMedian() {
        return tps == null ? null : tps.median();
    }

    /** {@code 6,512 (6,401-6,580)}, or "missing". */
    static String spread(Spread spread) {
        return spread == null ? "missing"
                : "%s (%s-%s)".formatted(Format.grouped(spread.median()), Format.grouped(spread.min()), Format.grouped(spread.max()));
    }

    /** What the build fails on in a scenario that does not measure errors: any failed sample, or a run without samples. */
    List<String> problems(String scenario, String condition) {
        List<String> problems = new ArrayList<>();
        if (tps == null || samples == 0) {
            problems.add("%s, %s: module %s recorded no sample".formatted(scenario, condition, target));
        }
        if (errors > 0) {
            problems.add("%s, %s: module %s failed %d of %d requests".formatted(scenario, condition, target, errors, samples));
        }
        return problems;
    }
}
