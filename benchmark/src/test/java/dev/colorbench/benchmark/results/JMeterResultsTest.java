package dev.colorbench.benchmark.results;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.colorbench.benchmark.plan.Phase;
import dev.colorbench.benchmark.plan.RunKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The figures of a small results file whose answers can be worked out by hand: a warm-up, a
 * closed-model run with one failure (a quoted, multi-line message) and an open-model run, each
 * measured run between readings of the module's meters.
 */
class JMeterResultsTest {

    static final Path FIXTURE = Path.of("src/test/resources/results/small.csv");

    private static final RunKey THROUGHPUT = new RunKey("template-mget", Phase.THROUGHPUT, 1);

    private static final RunKey LATENCY = new RunKey("template-mget", Phase.HALF, 1);

    private final JMeterResults results = JMeterResults.read(FIXTURE);

    @Test
    void readsTheSamplesOfEachRunByLabelIncludingAQuotedMultiLineFailure() {
        assertThat(results.samples(new RunKey("template-mget", Phase.WARMUP, 0))).hasSize(1);
        assertThat(results.samples(THROUGHPUT)).hasSize(6).filteredOn(sample -> !sample.success()).singleElement()
                .extracting(Sample::timestamp).isEqualTo(3500L);
        assertThat(results.samples(LATENCY)).hasSize(2);
        assertThat(results.failures("template-mget").entrySet()).singleElement().satisfies(reason -> {
            assertThat(reason.getKey()).isEqualTo("500 Test failed: code expected to equal /");
            assertThat(reason.getValue()).isEqualTo(1);
        });
    }

    @Test
    void anOpenModelArrivalTheBusyPoolTookLateIsCountedAndAClosedModelRunHasNoLag() {
        // the half-load run: one arrival taken on time, one 2.5 ms late; the closed model's samples carry JMeter's "null"
        assertThat(results.lateness(LATENCY)).isEqualTo(new JMeterResults.Lateness(2, 1, 2_500));
        assertThat(results.lateness(THROUGHPUT)).isEqualTo(JMeterResults.Lateness.NONE);
    }

    @Test
    void theModulesOwnFiguresAreTheDifferenceOfTheReadingsAroundTheRun() {
        ServerFigures server = results.server(THROUGHPUT);

        assertThat(server.requests()).isEqualTo(6);
        assertThat(server.meanMicros()).isCloseTo(1000, within(1e-6));
        assertThat(server.allocatedBytesPerRequest()).isCloseTo(100_000, within(1e-6));
        // the pause timer did not exist yet before the run (404): no pause so far, so both pauses fell in the run
        assertThat(server.gcPauses()).isEqualTo(2);
        assertThat(server.gcPauseMillis()).isCloseTo(4, within(1e-9));
    }

    @Test
    void theModulesOwnHistogramOfARunIsTheDifferenceOfItsReadingsWithPercentilesWithinTheirBuckets() {
        LatencyHistogram latency = results.server(LATENCY).latency();

        // 4 requests in the run: 2 between 100 and 125 µs, 2 between 125 and 150 µs
        assertThat(latency.requests()).isEqualTo(4);
        assertThat(latency.percentile(50)).isCloseTo(125, within(1e-9));
        assertThat(latency.percentile(25)).isCloseTo(112.5, within(1e-9));
        assertThat(latency.percentile(100)).isCloseTo(150, within(1e-9));
    }

    @Test
    void aRunWithoutReadingsHasNoServerFiguresRatherThanZeros() {
        ServerFigures none = results.server(new RunKey("reactive-mget", Phase.THROUGHPUT, 1));

        assertThat(none).isEqualTo(new ServerFigures(null, null, null, null, null, null, null, null, null));
        assertThat(none.allocatedBytesPerRequest()).isNull();
    }

    @Test
    void throughputCountsTheSamplesAfterTheRampUpOverTheirWindow() {
        RunStatistics run = RunStatistics.of(results.samples(THROUGHPUT), 1000);

        // after the 1 s ramp-up (from 3000 ms): 4 samples, the last ending at 4990 + 10 = 5000 ms
        assertThat(run.tps()).isCloseTo(4 / 2.0, within(1e-9));
        assertThat(run.samples()).isEqualTo(6);
        assertThat(run.errors()).isEqualTo(1);
    }

    @Test
    void latencyPercentilesUseTheNearestRank() {
        RunStatistics run = RunStatistics.of(results.samples(THROUGHPUT), 0);

        // elapsed sorted: 1 2 3 4 10 10
        assertThat(run.p50Ms()).isEqualTo(3);
        assertThat(run.p95Ms()).isEqualTo(10);
        assertThat(run.p99Ms()).isEqualTo(10);
        assertThat(run.maxMs()).isEqualTo(10);
        assertThat(run.meanMs()).isCloseTo(30 / 6.0, within(1e-9));
        assertThat(run.perSecond()).containsExactly(2, 2, 2);
        long[] hundred = new long[100];
        for (int i = 0; i < hundred.length; i++) {
            hundred[i] = i + 1;
        }
        assertThat(RunStatistics.percentile(hundred, 99)).isEqualTo(99);
    }

    @Test
    void noSamplesGiveNoLatencyRatherThanZeros() {
        RunStatistics none = RunStatistics.of(List.of(), 0);

        assertThat(none.samples()).isZero();
        assertThat(none.p50Ms()).isNull();
        assertThat(none.meanMs()).isNull();
    }

    @Test
    void medianAndRangeOfWhatWasMeasuredAndNothingForNothing() {
        assertThat(Spread.of(List.of(300.0, 100.0, 200.0))).isEqualTo(new Spread(200, 100, 300, 3));
        assertThat(Spread.of(java.util.Arrays.asList(400.0, null, 100.0, 200.0, 300.0))).isEqualTo(new Spread(250, 100, 400, 4));
        assertThat(Spread.of(List.of())).isNull();
    }

    @Test
    void writesOneRowsMeasuredSamplesAsJMeterWroteThem(@TempDir Path directory) throws Exception {
        Path written = directory.resolve("template-mget/results.csv");

        results.writeMeasured(java.util.Map.of("template-mget", written));

        List<String> lines = Files.readAllLines(written);
        assertThat(lines.get(0)).startsWith("timeStamp,elapsed,label,");
        assertThat(JMeterResults.read(written).samples(THROUGHPUT)).hasSize(6);
        assertThat(JMeterResults.read(written).samples(new RunKey("template-mget", Phase.WARMUP, 0))).isEmpty();
        assertThat(String.join("\n", lines)).doesNotContain("|before|", "|after|");
    }
}
