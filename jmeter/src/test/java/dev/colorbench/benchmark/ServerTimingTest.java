package dev.colorbench.benchmark;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The server-side figures: reading the actuator, the difference of two readings, the spread of repetitions, when to read. */
class ServerTimingTest {

    @Test
    void readsCountAndTotalTimeFromTheActuatorsAnswer() throws Exception {
        String json = Files.readString(Path.of("src/test/resources/actuator/http-server-requests.json"));

        ServerTiming.Snapshot snapshot = ServerTiming.Snapshot.parse(json);

        assertThat(snapshot.count()).isEqualTo(1021);
        assertThat(snapshot.totalSeconds()).isCloseTo(0.512345, within(1e-12));
    }

    @Test
    void anAnswerWithoutTheMeasurementsIsAnErrorNotAZero() {
        assertThatThrownBy(() -> ServerTiming.Snapshot.parse("{\"name\":\"http.server.requests\",\"measurements\":[]}"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ServerTiming.Snapshot.parse("{\"baseUnit\":\"milliseconds\",\"measurements\":["
                + "{\"statistic\":\"COUNT\",\"value\":1},{\"statistic\":\"TOTAL_TIME\",\"value\":2}]}"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theMeanOfARunIsTheDifferenceOfTotalTimeOverTheDifferenceOfCount() {
        // 1000 requests in 0.25 s of server time: 250 µs each; the 21 served before the run do not count
        ServerTiming.Window window = new ServerTiming.Window("in-memory", "throughput", 1,
                new ServerTiming.Snapshot(21, 0.5), new ServerTiming.Snapshot(1021, 0.75));

        assertThat(window.requests()).isEqualTo(1000);
        assertThat(window.meanMicros()).isCloseTo(250.0, within(1e-9));
    }

    @Test
    void aMissingReadingOrARunWithoutRequestsHasNoMean() {
        ServerTiming.Snapshot reading = new ServerTiming.Snapshot(21, 0.5);

        assertThat(new ServerTiming.Window("in-memory", "latency", 1, null, reading).meanMicros()).isNull();
        assertThat(new ServerTiming.Window("in-memory", "latency", 1, reading, null).requests()).isNull();
        assertThat(new ServerTiming.Window("in-memory", "latency", 1, reading, reading).meanMicros()).isNull();
    }

    @Test
    void repetitionsGiveTheMedianAndRangeOfThoseMeasuredAndKeepTheMissingOnesVisible() {
        ServerTiming.MeanMicros spread = ServerTiming.MeanMicros.of(Arrays.asList(300.0, null, 100.0, 200.0));

        assertThat(spread.median()).isEqualTo(200.0);
        assertThat(spread.min()).isEqualTo(100.0);
        assertThat(spread.max()).isEqualTo(300.0);
        assertThat(spread.measuredRepetitions()).isEqualTo(3);
        assertThat(spread.perRepetition()).containsExactly(300.0, null, 100.0, 200.0);
        assertThat(ServerTiming.MeanMicros.of(Arrays.asList(null, null))).isNull();
        assertThat(ReportPage.micros(null)).isEqualTo("missing");
        assertThat(ReportPage.micros(spread)).isEqualTo("200 (100-300) [3 of 4 reps]");
    }

    @Test
    void everyReadingFallsInAGapWhereTheModuleGetsNoRequest() {
        List<ScheduledRun> schedule = ScheduledRun.scheduleOf(settings("in-memory", "2", "2"));
        List<ServerTiming.Boundary> boundaries = ServerTiming.boundaries(schedule);

        assertThat(boundaries).hasSize(2 * 2 * 2);
        for (ServerTiming.Boundary boundary : boundaries) {
            long due = boundary.dueMillis();
            for (ScheduledRun run : schedule) {
                long from = run.startSecond() * 1000L;
                long to = (run.startSecond() + run.seconds()) * 1000L;
                assertThat(due < from || due > to).as("%s inside %s", boundary, run.label()).isTrue();
            }
        }
        ScheduledRun firstThroughput = schedule.get(1);
        assertThat(firstThroughput.phase()).isEqualTo(Phase.THROUGHPUT);
        assertThat(boundaries.get(0).dueMillis()).isLessThan(firstThroughput.startSecond() * 1000L)
                .isGreaterThan((schedule.get(0).startSecond() + schedule.get(0).seconds()) * 1000L);
    }

    @Test
    void withoutWarmUpTheFirstRunOfAModuleStartsFromTheReadingBeforeTheLoad() {
        List<ServerTiming.Boundary> boundaries = ServerTiming.boundaries(ScheduledRun.scheduleOf(settings("in-memory,template-mget", "1", "0")));

        assertThat(boundaries).filteredOn(boundary -> boundary.dueMillis() == null)
                .extracting(boundary -> boundary.module().id() + " " + boundary.phase().label())
                .containsExactly("in-memory throughput", "template-mget throughput");
    }

    @Test
    void theSummaryTakesTheServerMeanOnlyWhenTheServerSawExactlyJMetersRequests() {
        BenchmarkSettings settings = settings("template-mget", "1", "2");
        Verification verification = new Verification("6.2.6", "embedded", "jdk", "-Xmx256m",
                List.of(new Verification.ModuleCheck("template-mget", 8083, 5, Map.of("mget", 1.0), 1, 1.0)));
        List<Sample> samples = List.of(sample(1000, "template-mget|throughput|1"), sample(1001, "template-mget|throughput|1"),
                sample(5000, "template-mget|latency|1"));
        List<ServerTiming.Window> windows = List.of(
                new ServerTiming.Window("template-mget", "throughput", 1, new ServerTiming.Snapshot(40, 1), new ServerTiming.Snapshot(42, 1.0008)),
                // three requests where JMeter sent one: the reading caught another run's requests
                new ServerTiming.Window("template-mget", "latency", 1, new ServerTiming.Snapshot(42, 1.0008), new ServerTiming.Snapshot(45, 1.01)));

        ModuleSummary summary = BenchmarkReport.summarize(settings, verification, samples, windows).get(0);

        assertThat(summary.serverMeanMicrosThroughput().median()).isCloseTo(400.0, within(1e-6));
        assertThat(summary.serverMeanMicrosOpenModel()).isNull();
        assertThat(summary.runs()).extracting(ModuleSummary.Run::serverRequests).containsExactly(2L, 3L);
        assertThat(BenchmarkReport.summarize(settings, verification, samples).get(0).serverMeanMicrosThroughput()).isNull();
    }

    private static Sample sample(long timestamp, String label) {
        return new Sample(timestamp, 1, label, true, "200", "", timestamp + ",1," + label);
    }

    private static BenchmarkSettings settings(String modules, String repetitions, String warmup) {
        Properties given = new Properties();
        given.setProperty("benchmark.modules", modules);
        given.setProperty("benchmark.repetitions", repetitions);
        given.setProperty("benchmark.warmup", warmup);
        given.setProperty("benchmark.duration", "3");
        given.setProperty("benchmark.latencyDuration", "2");
        return BenchmarkSettings.from(given, Map.of());
    }
}
