package dev.colorbench.benchmark;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import dev.colorbench.core.ColorJson;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The run plan is built from the checked-in plans; these checks keep both honest. */
class PlanWriterTest {

    private static final Path TEMPLATES = Path.of("src/test/jmeter");

    @Test
    void theCheckedInExpectedAnswerIsTheCanonicalPalette() throws Exception {
        assertThat(Files.readString(TEMPLATES.resolve("palette.json"))).isEqualTo(ColorJson.palette());
    }

    @Test
    void everyCheckedInPlanIsParameterisedAndAssertsStatusAndTheWholeBody() throws Exception {
        for (String plan : List.of("throughput.jmx", "latency.jmx", "staged.jmx")) {
            String jmx = Files.readString(TEMPLATES.resolve(plan));
            assertThat(jmx).as(plan).contains("${__P(host,127.0.0.1)}", "${__P(port,8080)}", "${__P(path,/colors)}", "${__P(duration,")
                    .contains("Assertion.response_code", "Assertion.response_data", "${expected}")
                    .doesNotContain("ResultCollector"); // no listener slows the run
        }
    }

    @Test
    void interleavesRepetitionsAcrossModulesAndWarmsEachModuleUpOnce() {
        List<ScheduledRun> schedule = ScheduledRun.scheduleOf(settings("in-memory,template-mget", "2"));

        assertThat(schedule).extracting(ScheduledRun::label).containsExactly(
                "in-memory|warmup|0", "in-memory|throughput|1", "in-memory|latency|1",
                "template-mget|warmup|0", "template-mget|throughput|1", "template-mget|latency|1",
                "in-memory|throughput|2", "in-memory|latency|2",
                "template-mget|throughput|2", "template-mget|latency|2");
    }

    @Test
    void writesOneThreadGroupPerScheduledRunWithItsPortAndSettings() {
        BenchmarkSettings settings = settings("in-memory,reactive-mget", "1");
        List<ScheduledRun> schedule = ScheduledRun.scheduleOf(settings);

        String plan = new PlanWriter(TEMPLATES).runPlan(settings, schedule, Path.of("/tmp/palette.json"));

        assertThat(count(plan, "<ThreadGroup ")).isEqualTo(4);
        assertThat(count(plan, "<OpenModelThreadGroup ")).isEqualTo(2);
        assertThat(plan).contains("testname=\"reactive-mget|throughput|1\"", ">8084<", ">8080<", "/tmp/palette.json")
                .doesNotContain("__P(port", "__P(threads", "__P(duration");
        // the open-model group waits for its planned start: JMeter times it from the start of the test
        ScheduledRun latency = schedule.get(5);
        assertThat(plan).contains("pause(" + latency.startSecond() + " sec) rate(50/sec) random_arrivals(4 sec) pause(1 sec)");
    }

    @Test
    void substitutesOnlyTheGivenProperties() {
        assertThat(PlanWriter.substitute("${__P(port,8080)}:${__P(other,x)}", Map.of("port", "8083"))).isEqualTo("8083:${__P(other,x)}");
    }

    @Test
    void quickModeChangesTheDefaultsButAKnobGivenOnTheCommandLineWins() {
        Properties given = new Properties();
        given.setProperty("benchmark.quick", "true");
        given.setProperty("benchmark.threads", "4");

        BenchmarkSettings quick = BenchmarkSettings.from(given, Map.of("REDIS_URL", "redis://127.0.0.1:6390"));

        assertThat(quick.repetitions()).isEqualTo(1);
        assertThat(quick.threads()).isEqualTo(4);
        assertThat(quick.modules()).hasSize(PatternModule.values().length);
        assertThat(quick.redisUrl()).isEqualTo("redis://127.0.0.1:6390");
        assertThat(BenchmarkSettings.from(new Properties(), Map.of()).repetitions()).isGreaterThanOrEqualTo(3);
        assertThat(BenchmarkSettings.from(new Properties(), Map.of()).embeddedRedis()).isTrue();
    }

    private static BenchmarkSettings settings(String modules, String repetitions) {
        Properties given = new Properties();
        given.setProperty("benchmark.modules", modules);
        given.setProperty("benchmark.repetitions", repetitions);
        given.setProperty("benchmark.latencyDuration", "4");
        return BenchmarkSettings.from(given, Map.of());
    }

    private static int count(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }
}
