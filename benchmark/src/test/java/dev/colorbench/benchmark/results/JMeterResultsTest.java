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

    /** The least an arrival the run never sent waited: the run's drain, 10 s. */
    private static final long DRAIN_MICROS = 10_000_000;

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
    void anOpenModelRunCountsItsArrivalsAndTimesEachFromItsDueTimeNotFromWhenAThreadTookIt() {
        // the half-load run scheduled 3 arrivals and sent 2: one on time (5 ms in JMeter, 5.2 ms from its due time), one a
        // thread took 2.5 ms late (7 ms in JMeter, 9.6 ms from its due time); the third was never sent
        Arrivals arrivals = results.arrivals(LATENCY, DRAIN_MICROS);

        assertThat(arrivals.scheduled()).isEqualTo(3);
        assertThat(arrivals.sent()).isEqualTo(2);
        assertThat(arrivals.served()).isEqualTo(2);
        assertThat(arrivals.failed()).isZero();
        assertThat(arrivals.dropped()).as("an arrival never sent is counted, not lost").isEqualTo(1);
        // nearest rank over 5,200, 9,600 and the dropped one at the least it waited, the drain
        assertThat(arrivals.p50Micros()).as("the late one's wait for a thread is in its latency").isEqualTo(9_600);
        assertThat(arrivals.p99Micros()).isEqualTo(DRAIN_MICROS);
        assertThat(arrivals.maxMicros()).isEqualTo(DRAIN_MICROS);
        assertThat(arrivals.maxLagMs()).isEqualTo(2.5);
        assertThat(arrivals.overloaded()).as("1 of 3 arrivals unanswered").isTrue();
        assertThat(arrivals.overloadedBecause()).startsWith("33.3 % of 3 arrivals unanswered (0 failed, 1 dropped)");
        // the closed model's samples and the overload step's new clients carry JMeter's "null"
        assertThat(results.arrivals(THROUGHPUT, DRAIN_MICROS)).isNull();
        assertThat(results.arrivals(new RunKey("template-mget", Phase.EIGHTY, 1), DRAIN_MICROS)).isNull();
    }

    @Test
    void aRunThatKeepsUpDespiteJMetersJitterAndAPauseIsNotOverloaded() {
        // 1,000 arrivals a second for 4 s, 300 µs answers; one in ten taken 1.5 ms late (JMeter's own scheduling), and a
        // 30 ms pause in the last quarter that delays the 30 arrivals behind it
        List<Arrivals.Sent> sent = new java.util.ArrayList<>();
        for (int i = 0; i < 4_000; i++) {
            long lag = i % 10 == 0 ? 1_500 : 0;
            if (i >= 3_500 && i < 3_530) {
                lag = (3_530 - i) * 1_000L;
            }
            sent.add(new Arrivals.Sent(i, lag, lag + 300, true));
        }

        Arrivals arrivals = Arrivals.of(4_000, sent, DRAIN_MICROS);

        assertThat(sent.stream().filter(arrival -> arrival.lagMicros() > 1_000).count()).as("a tenth taken over 1 ms late")
                .isGreaterThan(400);
        assertThat(arrivals.overloaded()).isFalse();
        assertThat(arrivals.overloadedBecause()).isNull();
        assertThat(arrivals.queueGrowthMs()).isLessThan(1);
        assertThat(arrivals.p50Micros()).isEqualTo(300);
        assertThat(arrivals.maxMicros()).isEqualTo(30_300);
    }

    @Test
    void aSlowRowWhoseLastQuarterHappensToWaitLongerIsNotOverloaded() {
        // 40 ms answers, 55 ms on average in the last quarter: 15 ms more, but not twice as long, no queue that grows
        List<Arrivals.Sent> sent = new java.util.ArrayList<>();
        for (int i = 0; i < 400; i++) {
            sent.add(new Arrivals.Sent(i, 0, i < 300 ? 40_000 : 55_000, true));
        }

        Arrivals arrivals = Arrivals.of(400, sent, DRAIN_MICROS);

        assertThat(arrivals.queueGrowthMs()).isCloseTo(15, within(1e-9));
        assertThat(arrivals.overloaded()).isFalse();
    }

    @Test
    void aQueueThatGrowsOrArrivalsUnansweredMakeTheRowOverloaded() {
        // each arrival waits 0.1 ms longer than the one before: 400 ms behind by the end of 4,000
        List<Arrivals.Sent> growing = new java.util.ArrayList<>();
        for (int i = 0; i < 4_000; i++) {
            growing.add(new Arrivals.Sent(i, i * 100L, i * 100L + 300, true));
        }
        Arrivals queue = Arrivals.of(4_000, growing, DRAIN_MICROS);
        assertThat(queue.overloaded()).isTrue();
        assertThat(queue.queueGrowthMs()).isCloseTo(300, within(0.1));
        assertThat(queue.overloadedBecause()).isEqualTo("a queue grew: arrivals waited 350 ms on average in the run's last quarter, 50 ms in its first");

        // on time, but 41 of 4,000 arrivals failed or were never sent: just above 1 %
        List<Arrivals.Sent> onTime = new java.util.ArrayList<>();
        for (int i = 0; i < 3_980; i++) {
            onTime.add(new Arrivals.Sent(i, 0, 300, i >= 21));
        }
        Arrivals unanswered = Arrivals.of(4_000, onTime, DRAIN_MICROS);
        assertThat(unanswered.failed()).isEqualTo(21);
        assertThat(unanswered.dropped()).isEqualTo(20);
        assertThat(unanswered.overloaded()).isTrue();
        assertThat(unanswered.p99Micros()).as("the dropped ones rank at the least they waited").isEqualTo(300);
        assertThat(unanswered.maxMicros()).isEqualTo(DRAIN_MICROS);
        List<Arrivals.Sent> fortyFailed = new java.util.ArrayList<>();
        for (int i = 0; i < 4_000; i++) {
            fortyFailed.add(new Arrivals.Sent(i, 0, 300, i >= 40));
        }
        assertThat(Arrivals.of(4_000, fortyFailed, DRAIN_MICROS).overloaded()).as("40 of 4,000 is 1 %, not above").isFalse();
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
    void theModulesOwnHistogramOfARunIsTheDifferenceOfItsReadingsWithPercentilesThatRequestsTook() {
        LatencyHistogram latency = results.server(LATENCY).latency();

        // 10 requests of 90 µs before the run; in it 4, of 112, 118, 131 and 149 µs: each percentile is one of them
        assertThat(latency.requests()).isEqualTo(4);
        assertThat(latency.percentile(25)).isEqualTo(112.0);
        assertThat(latency.percentile(50)).isEqualTo(118.0);
        assertThat(latency.percentile(99)).isEqualTo(149.0);
        assertThat(latency.percentile(100)).isEqualTo(149.0);
    }

    @Test
    void aRunWithoutReadingsHasNoServerFiguresRatherThanZeros() {
        ServerFigures none = results.server(new RunKey("reactive-mget", Phase.THROUGHPUT, 1));

        assertThat(none).isEqualTo(new ServerFigures(null, null, null, null, null, null, null, null, null, null, null));
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
