package dev.colorbench.benchmark.plan;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.core.palette.ColorJson;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The run's plan is built from the checked-in plans; these checks keep both honest. */
class PlanWriterTest {

    private static final Path PLANS = Path.of("../jmeter/plans");

    @Test
    void theCheckedInExpectedAnswerIsTheCanonicalPalette() throws Exception {
        assertThat(Files.readString(PLANS.resolve("palette.json"))).isEqualTo(ColorJson.palette());
    }

    @Test
    void everyCheckedInPlanIsParameterisedChecksItsTargetFirstAndAssertsStatusAndTheWholeBody() throws Exception {
        for (String plan : List.of("throughput.jmx", "latency.jmx", "staged.jmx")) {
            String jmx = Files.readString(PLANS.resolve(plan));
            assertThat(jmx).as(plan).contains("${__P(host,127.0.0.1)}", "${__P(port,8080)}", "${__P(path,/colors)}", "${__P(duration,")
                    .contains("<SetupThreadGroup", "preflight.groovy", "System.exit(1)")
                    .contains("Assertion.response_code", "Assertion.response_data", "${expected}", "palette.json")
                    .doesNotContain("ResultCollector"); // no listener slows the run
        }
        assertThat(Files.readString(PLANS.resolve("preflight.groovy"))).contains("No module answers GET ' + url", "System.exit(1)");
    }

    @Test
    void warmsEachRowUpOnceInARoundThenInterleavesRepetitionsAcrossRows() {
        Schedule schedule = Schedule.of(settings("2"), List.of("in-memory", "template-mget"));

        assertThat(schedule.runs()).extracting(run -> run.key().label()).containsExactly(
                "in-memory|warmup|0", "template-mget|warmup|0",
                "in-memory|throughput|1", "in-memory|latency|1", "template-mget|throughput|1", "template-mget|latency|1",
                "in-memory|throughput|2", "in-memory|latency|2",
                "template-mget|throughput|2", "template-mget|latency|2");
        assertThat(schedule.measured()).hasSize(8);
    }

    @Test
    void eachMeasuredRunIsReadRightBeforeAndRightAfterByThePlanItself() {
        BenchmarkSettings settings = settings("1");
        Schedule schedule = Schedule.of(settings, List.of("in-memory", "reactive-mget"));

        String plan = new PlanWriter(PLANS, 41999).plan(schedule, settings, Map.of("in-memory", 41000, "reactive-mget", 41001)::get);

        List<String> groups = all(plan, "<(?:ThreadGroup|OpenModelThreadGroup) [^>]*testname=\"([^\"]+)\"");
        assertThat(groups).containsExactly(
                "in-memory|warmup|0", "reactive-mget|warmup|0",
                "in-memory|throughput|1 before", "in-memory|throughput|1", "in-memory|throughput|1 after",
                "in-memory|latency|1 before", "in-memory|latency|1", "in-memory|latency|1 after",
                "reactive-mget|throughput|1 before", "reactive-mget|throughput|1", "reactive-mget|throughput|1 after",
                "reactive-mget|latency|1 before", "reactive-mget|latency|1", "reactive-mget|latency|1 after");
        assertThat(plan).doesNotContain("SetupThreadGroup", "__P(port", "__P(threads", "__P(duration", "__P(label", "__P(progress")
                .contains(">41001<", "reactive-mget|latency|1|after|http.server.requests", "/actuator/metrics/jvm.gc.pause")
                // the CPU used meanwhile, from the run's own port
                .contains("reactive-mget|latency|1|after|colorbench.cpu", ">41999<", "/cpu/reactive-mget")
                .contains("run 4/4 (about 0m01s of load left): reactive-mget, latency, repetition 1");
        for (String label : all(plan, "HTTPSamplerProxy [^>]*testname=\"([^\"]+)\"")) {
            assertThat(RunKey.parse(label)).as(label).isPresent();
        }
        // the open model's arrivals are taken by a pool of threads on kept-alive connections, timed by the plan's own timer over
        // the run's 1 s; the group runs on for the drain to send the arrivals taken late, each timed from its due time
        assertThat(plan).doesNotContain("OpenModelThreadGroup").contains("<stringProp name=\"ThreadGroup.num_threads\">20</stringProp>",
                "JSR223Timer", "vars.put('lag'", "<stringProp name=\"ThreadGroup.duration\">${__longSum(1,10,1,)}</stringProp>",
                "JSR223PostProcessor", "vars.put('intended'");
        assertThat(all(plan, "<stringProp name=\"parameters\">(\\d+ \\d+)</stringProp>")).containsOnly("%d 1".formatted(settings.rate()));
    }

    @Test
    void rightBeforeEachProfiledLoadThePlanTellsTheHarnessThatItStarts() {
        BenchmarkSettings settings = settings("1");
        Schedule schedule = Schedule.profile(List.of("in-memory", "mget-raw"), 3);

        String plan = new PlanWriter(PLANS, 41999).plan(schedule, settings, Map.of("in-memory", 41000, "mget-raw", 41001)::get);

        // each row's call comes after the row before it has ended and right before the row's own load
        assertThat(all(plan, "<ThreadGroup [^>]*testname=\"([^\"]+)\"")).containsExactly(
                "in-memory|profile|1 starting", "in-memory|profile|1", "mget-raw|profile|1 starting", "mget-raw|profile|1");
        assertThat(plan).contains("/profile/in-memory", "/profile/mget-raw", ">41999<", "profile 2/2: mget-raw")
                .doesNotContain("__P(label", "__P(progress");
        // the call's sample is neither load nor reading of any run
        assertThat(RunKey.parse("mget-raw|profile|1|starting")).isEmpty();
        assertThat(all(plan, "HTTPSamplerProxy [^>]*testname=\"([^\"]+)\"")).contains("mget-raw|profile|1|starting");
    }

    @Test
    void atTheFloorsPlaceInARoundThePlanHasTheHarnessMeasureItAndWaitsForItsAnswer() {
        BenchmarkSettings settings = settings("1");
        Schedule schedule = Schedule.of(settings, List.of("in-memory"), false).withFloor(settings);

        String plan = new PlanWriter(PLANS, 41999).plan(schedule, settings, Map.of("in-memory", 41000)::get);

        assertThat(all(plan, "<ThreadGroup [^>]*testname=\"([^\"]+)\"")).contains("floor|floor|1", "in-memory|throughput|1");
        assertThat(plan).contains("/floor/1", ">41999<", "floor of round 1").doesNotContain("__P(label", "__P(progress");
        // the call waits as long as the harness measures, and more: a GET and an MGET of a closed-model run's length each
        assertThat(plan).contains("<stringProp name=\"HTTPSampler.response_timeout\">%d</stringProp>".formatted((2 * settings.durationSeconds() + 30) * 1000));
        assertThat(RunKey.parse("floor|floor|1")).hasValueSatisfying(labelled -> assertThat(labelled.run().phase()).isEqualTo(Phase.FLOOR));
    }

    @Test
    void theOverloadStepIsOfNewClientsEachOnItsOwnConnection() {
        BenchmarkSettings settings = settings("1");
        Schedule schedule = Schedule.openModel(settings, Map.of("template-mget", 9_000));

        String plan = new PlanWriter(PLANS, 41999).plan(schedule, settings, Map.of("template-mget", 41000)::get);

        // JMeter times open-model arrivals from the start of the test: each group pauses until "now", computed when it starts
        assertThat(plan).contains("<OpenModelThreadGroup", "pause(${__longSum(${__time(,)},-${__P(TESTSTART.MS,0)},)} ms) rate(9000/sec) "
                + "random_arrivals(1 sec) pause(10 sec)").doesNotContain("JSR223Timer", "JSR223PostProcessor");
    }

    @Test
    void theOpenModelsPlanWarmsJMeterUpOnEveryRowBeforeItsFirstArrival() {
        BenchmarkSettings settings = settings("1");
        Schedule schedule = Schedule.atShares(settings, new java.util.LinkedHashMap<>(Map.of("in-memory", 1_500.0)));

        assertThat(schedule.runs()).extracting(run -> run.key().label())
                .containsExactly("in-memory|warmup|0", "in-memory|half|1", "in-memory|eighty|1");
        assertThat(schedule.measured()).extracting(Schedule.Run::rate).containsExactly(750, 1_000);
        // the warm-up runs the measured runs' pool and scripts, at half load, and waits for no drain
        assertThat(schedule.runs().get(0).rate()).isEqualTo(750);
        String plan = new PlanWriter(PLANS, 41999).plan(schedule, settings, Map.of("in-memory", 41000)::get);
        assertThat(all(plan, "<stringProp name=\"ThreadGroup.duration\">([^<]+)</stringProp>")).containsExactly(
                "${__longSum(1,0,1,)}", "${__longSum(1,10,1,)}", "${__longSum(1,10,1,)}");
        assertThat(all(plan, "(<JSR223PostProcessor) ")).hasSize(3);
    }

    @Test
    void whereTheCapMakesTwoStepsOneTheStepRunsOnce() {
        BenchmarkSettings settings = settings("1");
        Schedule schedule = Schedule.atShares(settings, new java.util.LinkedHashMap<>(Map.of("in-memory", 20_000.0)));

        assertThat(schedule.runs()).extracting(run -> run.key().label()).containsExactly("in-memory|warmup|0", "in-memory|half|1");
        assertThat(schedule.measured()).extracting(Schedule.Run::rate).containsExactly(1_000);
        assertThat(Schedule.sameStep(settings, 20_000, Phase.EIGHTY)).isTrue();
        assertThat(Schedule.sameStep(settings, 1_500, Phase.EIGHTY)).isFalse();
        assertThat(Schedule.sameStep(settings, 20_000, Phase.HALF)).isFalse();
    }

    @Test
    void thePoolIsLargeEnoughForAnswersOfATenthOfASecondAtTheRate() {
        assertThat(PlanWriter.pool(50)).isEqualTo(20);
        assertThat(PlanWriter.pool(1_000)).isEqualTo(100);
        assertThat(PlanWriter.pool(1_001)).isEqualTo(101);
    }

    @Test
    void whileAnotherWriterChangesColorsEachAnswerIsCheckedForItsLengthInstead() {
        BenchmarkSettings settings = settings("1");
        Schedule schedule = Schedule.of(settings, List.of("near-cache"), false);

        String whole = new PlanWriter(PLANS, 41999).plan(schedule, settings, Map.of("near-cache", 41000)::get);
        String length = new PlanWriter(PLANS, 41999).plan(schedule, settings, Map.of("near-cache", 41000)::get, BodyCheck.LENGTH, new byte[10203]);

        assertThat(whole).contains("Body is the whole palette").doesNotContain("JSR223Assertion");
        assertThat(length).doesNotContain("Body is the whole palette", "MD5HexAssertion").contains("Status is 200", "JSR223Assertion",
                "if (length != 10203)");
        assertThat(all(length, "<(JSR223Assertion) ")).hasSize(2); // the warm-up's thread group and the measured one
    }

    @Test
    void theDigestCheckComparesTheBodysMd5() throws Exception {
        BenchmarkSettings settings = settings("1");
        Schedule schedule = Schedule.of(settings, List.of("in-memory"), false);
        byte[] palette = ColorJson.palette().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        String md5 = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5").digest(palette));

        String plan = new PlanWriter(PLANS, 41999).plan(schedule, settings, Map.of("in-memory", 41000)::get, BodyCheck.DIGEST, palette);

        assertThat(plan).doesNotContain("Body is the whole palette").contains("Status is 200",
                "<stringProp name=\"MD5HexAssertion.size\">" + md5 + "</stringProp>");
        // every assertion keeps its hashTree, as JMeter's format wants
        assertThat(all(plan, "(</MD5HexAssertion>\\s*<hashTree/>)")).hasSize(2);
    }

    @Test
    void substitutesOnlyTheGivenProperties() {
        assertThat(PlanWriter.substitute("${__P(port,8080)}:${__P(other,x)}", Map.of("port", "8083"))).isEqualTo("8083:${__P(other,x)}");
    }

    @Test
    void labelsTheResultsCanReadBack() {
        RunKey run = new RunKey("in-memory+objects", Phase.LATENCY, 2);

        assertThat(RunKey.parse(run.label())).hasValue(new RunKey.Labelled(run, null, null));
        assertThat(RunKey.parse(run.readingLabel(false, ServerMetric.ALLOCATED)))
                .hasValue(new RunKey.Labelled(run, false, ServerMetric.ALLOCATED));
        assertThat(RunKey.parse("Settings and reachability")).isEmpty();
        assertThat(RunKey.parse("a|sideways|1")).isEmpty();
    }

    private static final String SEED = "3";

    private static BenchmarkSettings settings(String repetitions) {
        Properties properties = new Properties();
        properties.setProperty("benchmark.quick", "true");
        properties.setProperty("benchmark.repetitions", repetitions);
        // the rounds' orders these tests spell out are this seed's
        properties.setProperty("benchmark.seed", SEED);
        return BenchmarkSettings.from(properties, Map.of());
    }

    private static List<String> all(String text, String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(text);
        List<String> found = new java.util.ArrayList<>();
        while (matcher.find()) {
            found.add(matcher.group(1));
        }
        return found;
    }
}
