package dev.colorbench.benchmark;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The report's figures from a small results file whose answers can be worked out by hand. */
class ResultsAnalysisTest {

    private static final Path FIXTURE = Path.of("src/test/resources/results/small.csv");

    private final ResultsFile results = ResultsFile.read(FIXTURE);

    @Test
    void readsEveryRecordIncludingAQuotedMultiLineFailureMessage() {
        assertThat(results.samples()).hasSize(9);
        Sample failed = results.samples().get(4);
        assertThat(failed.success()).isFalse();
        assertThat(failed.responseCode()).isEqualTo("500");
        assertThat(failed.failureMessage()).contains("received  : [[[5]]]00").endsWith("the body \"is\" wrong");
        assertThat(failed.line()).startsWith("3500,4,").contains("\n****** comparison");
    }

    @Test
    void throughputCountsTheSamplesAfterTheRampUpOverTheirWindow() {
        RunStatistics run = RunStatistics.of(samples("template-mget|throughput|1"), 1000);

        // after the 1 s ramp-up (from 3000 ms): 4 samples, the last ending at 4990 + 10 = 5000 ms
        assertThat(run.tps()).isCloseTo(4 / 2.0, within(1e-9));
        assertThat(run.samples()).isEqualTo(6);
        assertThat(run.errors()).isEqualTo(1);
        assertThat(run.errorPercent()).isCloseTo(100.0 / 6, within(1e-9));
    }

    @Test
    void latencyPercentilesUseTheNearestRank() {
        RunStatistics run = RunStatistics.of(samples("template-mget|throughput|1"), 0);

        // elapsed sorted: 1 2 3 4 10 10
        assertThat(run.p50Ms()).isEqualTo(3);
        assertThat(run.p95Ms()).isEqualTo(10);
        assertThat(run.p99Ms()).isEqualTo(10);
        assertThat(run.maxMs()).isEqualTo(10);
        assertThat(run.meanMs()).isCloseTo(30 / 6.0, within(1e-9));
        assertThat(run.perSecond()).containsExactly(2, 2, 2);
    }

    @Test
    void percentileOfAHundredValues() {
        long[] sorted = new long[100];
        for (int i = 0; i < sorted.length; i++) {
            sorted[i] = i + 1;
        }
        assertThat(RunStatistics.percentile(sorted, 50)).isEqualTo(50);
        assertThat(RunStatistics.percentile(sorted, 95)).isEqualTo(95);
        assertThat(RunStatistics.percentile(sorted, 99)).isEqualTo(99);
        assertThat(RunStatistics.percentile(new long[] { 7 }, 99)).isEqualTo(7);
    }

    @Test
    void medianAndRangeAcrossRepetitions() {
        assertThat(Spread.of(List.of(300.0, 100.0, 200.0))).isEqualTo(new Spread(200, 100, 300));
        assertThat(Spread.of(List.of(400.0, 100.0, 200.0, 300.0))).isEqualTo(new Spread(250, 100, 400));
        assertThat(Spread.of(List.of(42.0))).isEqualTo(new Spread(42, 42, 42));
    }

    @Test
    void summaryLeavesTheWarmUpOutAndNamesAModuleAboveTheErrorThreshold() {
        BenchmarkSettings settings = settings("template-mget");
        Verification verification = new Verification("6.2.6", "embedded", "jdk", "-Xmx256m",
                List.of(new Verification.ModuleCheck("template-mget", 8083, 5, Map.of("mget", 1.0), 1, 1.0)));

        List<ModuleSummary> summaries = BenchmarkReport.summarize(settings, verification, results.samples());

        ModuleSummary summary = summaries.get(0);
        assertThat(summary.samples()).isEqualTo(8); // 6 closed-model + 2 open-model, not the warm-up
        assertThat(summary.errors()).isEqualTo(1);
        assertThat(summary.openModelLatency().p50Ms()).isEqualTo(5);
        assertThat(summary.openModelLatency().maxMs()).isEqualTo(7);
        assertThat(summary.tpsPerRepetition()).hasSize(1);
        assertThat(summary.redisCommandsPerRequest()).isEqualTo(1);
        assertThat(BenchmarkReport.problems(summaries, 0)).singleElement().asString()
                .contains("module template-mget").contains("12.50 % errors");
        assertThat(BenchmarkReport.problems(summaries, 20)).isEmpty();
    }

    @Test
    void aMeasuredRunWithoutSamplesFailsTheBuild() {
        BenchmarkSettings settings = settings("reactive-mget");
        Verification verification = new Verification("6.2.6", "embedded", "jdk", "-Xmx256m",
                List.of(new Verification.ModuleCheck("reactive-mget", 8084, 5, Map.of("mget", 1.0), 1, 1.0)));

        List<ModuleSummary> summaries = BenchmarkReport.summarize(settings, verification, results.samples());

        assertThat(BenchmarkReport.problems(summaries, 100)).contains("module reactive-mget: throughput run 1 recorded no sample",
                "module reactive-mget: latency run 1 recorded no sample");
    }

    private static BenchmarkSettings settings(String modules) {
        java.util.Properties properties = new java.util.Properties();
        properties.setProperty("benchmark.modules", modules);
        properties.setProperty("benchmark.repetitions", "1");
        properties.setProperty("benchmark.rampup", "1");
        return BenchmarkSettings.from(properties, Map.of());
    }

    private List<Sample> samples(String label) {
        return results.samples().stream().filter(sample -> sample.label().equals(label)).toList();
    }
}
