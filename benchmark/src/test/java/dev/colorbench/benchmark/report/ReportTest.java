package dev.colorbench.benchmark.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Json;
import dev.colorbench.benchmark.RunDirectory;
import dev.colorbench.benchmark.modules.Layout;
import dev.colorbench.benchmark.modules.PatternModule;
import dev.colorbench.benchmark.modules.Role;
import dev.colorbench.benchmark.modules.Store;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.results.Arrivals;
import dev.colorbench.testkit.statistics.Interval;
import dev.colorbench.benchmark.results.JMeterResults;
import dev.colorbench.benchmark.run.Condition;
import dev.colorbench.benchmark.run.CpuPlacement;
import dev.colorbench.benchmark.run.MachineSteadiness;
import dev.colorbench.benchmark.run.Measured;
import dev.colorbench.benchmark.run.SteadyState;
import dev.colorbench.benchmark.run.Verification;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The report of a small run whose figures can be worked out by hand (see src/test/resources/results/small.csv). */
class ReportTest {

    private static final Target TEMPLATE_MGET = new Target("template-mget",
            new PatternModule("template-mget", "RedisTemplate MGET of JSON strings", 8083, "MVC", Role.REDIS_PATTERN, Store.REDIS, 180, false, Layout.JSON_STRINGS, null, null, List.of(), List.of()),
            Map.of());

    private static final Target REACTIVE_MGET = new Target("reactive-mget",
            new PatternModule("reactive-mget", "ReactiveRedisOperations MGET", 8084, "WebFlux", Role.REDIS_PATTERN, Store.REDIS, 400, false, Layout.JSON_STRINGS, null, null, List.of(), List.of()),
            Map.of());

    private final JMeterResults results = JMeterResults.read(Path.of("src/test/resources/results/small.csv"));

    @Test
    void theWarmUpVerdictNamesEachRowThatDidNotSettleAndEachThatClimbedAndClaimsNothingElse() {
        assertThat(ReportView.warmupVerdict(List.of("a", "b", "c"), List.of("b"), 24, List.of("c (2)")))
                .contains("2 of 3 rows settled", "not settled: b.", "of 24: c (2).").doesNotContain("all 3");
        assertThat(ReportView.warmupVerdict(List.of("a", "b"), List.of(), 16, List.of()))
                .contains("all 2 rows settled", "No measured run climbed");
        assertThat(ReportView.warmupVerdict(List.of(), List.of(), 0, List.of())).as("a quick run of one round has nothing to say").isEmpty();
    }

    @Test
    void aRatioIsTakenWithinEachRoundAndItsIntervalIsOverTheRounds() {
        // the machine slows down by half from round 3 on: both rows move, their ratio within each round does not
        Map<Integer, Double> row = Map.of(1, 200.0, 2, 210.0, 3, 100.0, 4, 104.0, 5, 98.0, 6, 102.0);
        Map<Integer, Double> base = Map.of(1, 100.0, 2, 105.0, 3, 50.0, 4, 52.0, 5, 49.0, 6, 51.0);
        var rounds = dev.colorbench.testkit.statistics.Statistics.rounds(Map.of("row", row, "base", base), round -> round <= 3 ? 1 : 2);
        var paired = rounds.ratio("row", "base");
        assertThat(paired.estimate()).isCloseTo(2.0, within(1e-9));
        assertThat(paired.low()).isCloseTo(2.0, within(1e-9));
        assertThat(paired.high()).isCloseTo(2.0, within(1e-9));
        // the ratio of the figures would hide nothing here, but unpaired the figures' own intervals are wide
        assertThat(rounds.figure("row").halfWidthPercent()).isGreaterThan(20);
        assertThat(dev.colorbench.testkit.statistics.Statistics.rounds(Map.of("row", Map.of(1, 1.0, 2, 2.0), "base", Map.of(3, 1.0)), round -> 1)
                .ratio("row", "base")).as("no round measured both").isNull();
    }

    @Test
    void aP99AtHalfLoadIsFromTheArrivalsDueTimeBesideTheModulesAndSaysWhenTheRowWasOverloaded() {
        // a row offered half its closed-model TPS that serves far less and fails about half of its arrivals
        Arrivals halfFailed = new Arrivals(2_064, 2_064, 1_037, 1_027, 0, 900_000L, 8_000_000L, 9_900_000L, 10_100_000L, 10_000_000, 9_000, 4_000,
                true, "49.8 % of 2064 arrivals unanswered (1027 failed, 0 dropped), above 1 %");
        assertThat(ReportView.p99(latency(2_064, 1_027, 9_136_697.0, 4_278L, halfFailed)))
                .isEqualTo("9,900,000 / 9,136,697 µs (4278 ms); 49.8 % failed, overloaded");
        // a row that keeps up: its p99 from the due time is a little above the module's own
        Arrivals keptUp = new Arrivals(8_000, 8_000, 8_000, 0, 0, 1_700L, 3_200L, 5_100L, 9_000L, 10_000_000, 1.4, 0.1, false, null);
        assertThat(ReportView.p99(latency(8_000, 0, 4_900.0, 9L, keptUp))).isEqualTo("5,100 / 4,900 µs (9 ms)");
        Arrivals oneFailed = new Arrivals(8_000, 8_000, 7_992, 8, 0, 1_700L, 3_200L, 5_100L, 9_000L, 10_000_000, 1.4, 0.1, false, null);
        assertThat(ReportView.p99(latency(8_000, 8, 4_900.0, 9L, oneFailed))).as("a few failures in thousands are a figure, not an overload")
                .isEqualTo("5,100 / 4,900 µs (9 ms); 0.1 % failed");
        // arrivals never sent count at the least they waited, so the figures from the due time are lower bounds
        Arrivals dropped = new Arrivals(8_000, 7_840, 7_840, 0, 160, 1_700L, 3_200L, 10_000_000L, 10_000_000L, 10_000_000, 2_500, 900, true,
                "2.0 % of 8000 arrivals unanswered (0 failed, 160 dropped), above 1 %");
        assertThat(ReportView.p99(latency(7_840, 0, 4_900.0, 9L, dropped))).isEqualTo("≥ 10,000,000 / 4,900 µs (9 ms); 2.0 % dropped, overloaded");
        // without the figures of arrivals (a run that recorded none), the module's and JMeter's alone
        assertThat(ReportView.p99(latency(8_000, 0, 4_900.0, 9L, null))).isEqualTo("4,900 µs (9 ms)");
    }

    private static ModuleSummary.Latency latency(long samples, long errors, Double p99Micros, Long p99Ms, Arrivals arrivals) {
        return new ModuleSummary.Latency(4.0, 3L, 8L, p99Ms, 20L, samples, errors, 2_000.0, 2_000.0, 1_500.0, 3_000.0, p99Micros, 7_000.0, arrivals);
    }

    @Test
    void summarisesTheMeasuredRunsLeavingTheWarmUpOutAndMissingFiguresMissing() {
        ModuleSummary summary = report(TEMPLATE_MGET).summaries().get(0);

        assertThat(summary.samples()).isEqualTo(10); // 6 closed-model + 2 at half load + 2 at 80 %, not the warm-up
        assertThat(summary.errors()).isEqualTo(1);
        assertThat(summary.tpsPerRepetition()).singleElement().isEqualTo(2.0);
        assertThat(summary.openModelLatency().p50Ms()).isEqualTo(5);
        assertThat(summary.redisCommands()).containsExactly(Map.entry("mget", 1.0));
        assertThat(summary.serverMeanMicrosThroughput().median()).isCloseTo(1000, within(1e-6));
        assertThat(summary.allocatedBytesPerRequest().median()).isCloseTo(100_000, within(1e-6));
        // two pauses of 4 ms in all during the 15 s closed-model run
        assertThat(summary.gc().pausesPerSecond().median()).isCloseTo(2 / 15.0, within(1e-9));
        assertThat(summary.gc().meanPauseMillis()).isCloseTo(2, within(1e-9));
        // the module counted 3 requests around the open-model run, JMeter 2: no server figure rather than a wrong one
        assertThat(summary.serverMeanMicrosOpenModel()).isNull();
        assertThat(summary.runs().get(1).serverRequests()).isEqualTo(3);
        assertThat(summary.percentOfCeiling()).isNull();
        assertThat(summary.ratioToReference()).isNull();
        // the CPU the run counted around the closed-model run, over its 6 requests: 0.6 ms module, 0.18 ms Redis, 0.12 ms JMeter
        assertThat(summary.cpu().moduleMicros().median()).isCloseTo(100, within(1e-6));
        assertThat(summary.cpu().storeMicros().median()).isCloseTo(30, within(1e-6));
        assertThat(summary.cpu().totalMicros().median()).isCloseTo(130, within(1e-6));
        assertThat(summary.cpu().jmeterMicros().median()).isCloseTo(20, within(1e-6));
        assertThat(summary.cpu().requestsPerCoreSecond()).isCloseTo(1e6 / 130, within(1e-6));
        assertThat(summary.ratioToMget()).isEqualTo(1.0);
        assertThat(summary.cpuRatioToMget()).isEqualTo(1.0);
        // Redis read 150 bytes and wrote 66,000 around the closed-model run, over its 6 requests
        assertThat(summary.runs().get(0).bytesToRedis()).isCloseTo(25, within(1e-9));
        assertThat(summary.runs().get(0).bytesFromRedis()).isCloseTo(11_000, within(1e-9));
        assertThat(summary.runs().get(1).bytesToRedis()).as("no byte counts around the open-model run: missing, not 0").isNull();
        // the fleet's figures: 100 µs of the module and 30 µs of Redis a request
        assertThat(summary.fleet().appRequestsPerCore().estimate()).isCloseTo(10_000, within(1e-6));
        assertThat(summary.fleet().redisRequestsPerCore().estimate()).isCloseTo(1e6 / 30, within(1e-6));
        assertThat(summary.fleet().bytesToRedis().estimate()).isCloseTo(25, within(1e-9));
        assertThat(summary.fleet().bytesFromRedis().rounds()).isEqualTo(1);
    }

    @Test
    void writesASelfContainedPageTheMarkdownTableAndTheData(@TempDir Path folder) throws Exception {
        RunDirectory directory = new RunDirectory(folder);

        report(TEMPLATE_MGET).write(directory);

        String html = Files.readString(folder.resolve("report.html"));
        assertThat(html).contains("<td>template-mget", "1 MGET", "Chart.js", "new Chart(", "colorbenchHeadline({\"environment\"")
                .contains("1,000 (1,000-1,000)", "98 KB", "missing", "6 s, steady (1,990 / 2,010 / 2,000 requests/s; JIT 12 ms in them), 3 of 12,000 failed", "0.1/s, 0.3 ms/s, 2 ms mean", "Why requests of template-mget failed", "500 Test failed: code expected to equal /")
                .doesNotContain("<script src", "<link ", "{{");
        String body = html.substring(html.indexOf("<body>"), html.indexOf("<script>", html.indexOf("<body>")));
        assertThat(body).doesNotContain("null").contains("1 of 6");
        assertThat(folder.resolve("charts/tps.html")).content().contains("new Chart(", "\"labels\":[\"template-mget · 1 MGET, 1 round trip\"]");
        String markdown = Files.readString(folder.resolve("report.md"));
        assertThat(markdown).contains("| template-mget | 2 | 100 + 30 = 130 | 7,692 | ≥ 10,000,000 / 149 µs (7 ms); 33.3 % dropped, overloaded | 1 MGET | 1 | 1.00 · 1.00 | 20 (20-20) | n/a |",
                        "| template-mget | RedisTemplate MGET of JSON strings | MVC |")
                .contains("Full run").doesNotContain("{{")
                .contains("Machine: the same work on every core in 3 windows of 8 s varied by 2 % of its median as arithmetic and by 30 % as reads from memory.");
        assertThat(html).contains("machine steadiness");
        // the fleet on paper, at the default rates: 10,000 a second is 1 application core and 0.3 of a Redis core, 0.3 and 110 MB/s;
        // one round in one fork separates no side from the other
        assertThat(markdown).contains("## What a fleet needs from Redis", "replicas serving reads",
                "| template-mget | 10,000 · 33,333 | 25 · 11,000 | 2.9 · 14.1 OVER | 10,000 | 1 | 0.30 | 1 | 0.3 · 110 | level (application, 3.33 x Redis's; this run does not separate them) |",
                "| template-mget |  |  |  | 1,000,000 | 100 | 30 | 30 | 25 · 11,000 | level (application, 3.33 x Redis's; this run does not separate them) |");
        assertThat(html).contains("What a fleet needs from Redis");
        assertThat(Json.MAPPER.readTree(folder.resolve("summary.json").toFile()).path("modules").get(0).path("tpsMedian").asDouble())
                .isEqualTo(2.0);
        assertThat(Json.MAPPER.readTree(folder.resolve("summary.json").toFile()).path("modules").get(0).path("fleet").path("bytesFromRedis")
                .path("estimate").asDouble()).isEqualTo(11_000.0);
        assertThat(Json.MAPPER.readTree(folder.resolve("summary.json").toFile()).path("scenarios").has("fleet"))
                .as("the fleet table's figures are each row's, not a scenario's").isFalse();
    }

    @Test
    void opensWithTheRunTheVerdictTheHeadlineChartThenTheShortTable(@TempDir Path folder) throws Exception {
        report(TEMPLATE_MGET, REACTIVE_MGET).write(new RunDirectory(folder));

        String html = Files.readString(folder.resolve("report.html"));
        String page = html.substring(html.indexOf("<body>"));
        int run = page.indexOf("<p class=\"run\">");
        int verdict = page.indexOf("<p class=\"verdict\">");
        int chart = page.indexOf("<canvas id=\"headline-tps\">");
        int table = page.indexOf("<table>");
        assertThat(run).isNotNegative().isLessThan(verdict);
        assertThat(verdict).isLessThan(chart);
        assertThat(chart).isLessThan(table);
        assertThat(page.substring(run, verdict)).contains("Full run", "<code>./mvnw -Pbenchmark verify", "commit", " cores, ");
        assertThat(page.substring(verdict, chart)).contains(
                "Cheapest per request: template-mget, 130 µs of CPU a request, module and store; one core serves 7,692 requests a second at that cost.");
        // rank, module, CPU per request, per core, x floor, store work, round trips, TPS, x the reference, failed: the rest is in the sections after it
        String first = page.substring(table, page.indexOf("</table>", table));
        assertThat(first.split("<th>", -1)).hasSize(1 + 10);
        assertThat(first.split("<tr>", -1)).hasSize(1 + 1 + 2);
        // the expert figures follow, each in its own section, then every figure per row
        int open = page.indexOf("Latency at a share of throughput");
        int jmeter = page.indexOf("JMeter's own CPU");
        int allocation = page.indexOf("Allocation and garbage collection");
        int spreads = page.indexOf("Spreads and warm-up");
        assertThat(table).isLessThan(open);
        assertThat(open).isLessThan(jmeter);
        assertThat(jmeter).isLessThan(allocation);
        assertThat(allocation).isLessThan(spreads);
        assertThat(spreads).isLessThan(page.indexOf("Every figure per row"));
        // the headline chart is drawn by the one code that also draws headline.html, from the same data
        assertThat(html).contains("function colorbenchHeadline(");
        assertThat(folder.resolve("headline.html")).content().contains("function colorbenchHeadline(", "\"module\":\"reactive-mget\"")
                .contains("./mvnw -Pbenchmark verify at ");

        String markdown = Files.readString(folder.resolve("report.md"));
        int textChart = markdown.indexOf("```text\ntemplate-mget  ");
        int header = markdown.indexOf("| module |");
        assertThat(markdown).startsWith("**Full run** `./mvnw -Pbenchmark verify");
        assertThat(textChart).isPositive().isLessThan(header);
        assertThat(markdown.substring(header, markdown.indexOf('\n', header)).split("\\|", -1)).hasSize(1 + 10 + 1);
        // a bar as long as the row's median TPS against the fastest row's; a row without one has none
        assertThat(markdown).contains("template-mget  ██████████████████████████████    2 TPS  1 MGET, 1 round trip\nreactive-mget                                  missing  1 MGET, 1 round trip\n```");
    }

    @Test
    void ranksRowsOnlyWhereTheirPairedRatioExcludesOneAndLeavesTheTwinOut() {
        // eight rounds in two forks: d 13 % above c in its first fork and 2 % in its second, b and a 12 % apart round by round
        double[] c = { 13.3, 13.0, 13.6, 13.3, 13.1, 13.5, 13.2, 13.4 };
        double[] d = { 15.0, 14.8, 15.2, 14.9, 13.6, 13.4, 13.7, 13.5 };
        double[] b = { 25.6, 25.1, 26.0, 25.4, 25.3, 25.9, 25.5, 25.7 };
        double[] a = { 28.7, 28.2, 29.1, 28.5, 28.4, 29.0, 28.6, 28.8 };
        List<ModuleSummary> rows = List.of(ranked("a", new Interval(28.7, 26.0, 31.0, 8), null, a), ranked("b", new Interval(25.6, 24.0, 27.0, 8), null, b),
                ranked("c", new Interval(13.3, 13.0, 13.6, 8), null, c), ranked("c+twin", new Interval(13.5, 13.1, 13.9, 8), "c", c),
                ranked("d", new Interval(14.8, 13.5, 15.2, 8), null, d));
        ReportView view = new ReportView(BenchmarkSettings.from(new Properties(), Map.of()), null, rows, "./mvnw -Pbenchmark verify");

        assertThat(view.ranking()).as("cheapest first").extracting(row -> row.get("rank") + " " + row.get("module") + " " + row.get("level"))
                .containsExactly("1 c ", "1 d level with c", "3 b ", "4 a ");
        assertThat(view.ranking().get(0).get("cpu")).as("ranked by the CPU a request costs").isEqualTo("13 (13-14)");
        assertThat(view.ranking().get(0).get("perCore")).isEqualTo("75,188 (73,529-76,923)");
        assertThat(view.rankedRows()).extracting(row -> row.get("module") + " " + row.get("rank")).as("the twin right after its row, unranked")
                .containsExactly("c 1", "c+twin ", "d 1", "b 3", "a 4");
    }

    /**
     * A row with only its CPU per request, its share of the ceiling and its ratio to the reference row measured (all three
     * {@code ratio}), the row it is the A/A twin of, and its CPU per request in each of eight rounds.
     */
    private static ModuleSummary ranked(String module, Interval ratio, String twinOf, double... cpuByRound) {
        ModuleSummary.Latency none = new ModuleSummary.Latency(null, null, null, null, null, 0, 0, null, null, null, null, null, null, null);
        List<ModuleSummary.Run> runs = new java.util.ArrayList<>();
        for (int round = 1; round <= cpuByRound.length; round++) {
            runs.add(new ModuleSummary.Run(dev.colorbench.benchmark.plan.Phase.THROUGHPUT.label(), round, 1000, 0, 100.0, List.of(), null, null, null, null,
                    null, cpuByRound[round - 1], 0.0, null, null, null, null));
        }
        return new ModuleSummary(module, "pattern", "MVC", "redis-pattern", Map.of(), null, Map.of(), 1, 1.0, null, null, "1 MGET", 1.0,
                100.0, 100.0, 100.0, List.of(100.0), null, null, ratio.estimate(), null, null, null, null, none, none, none, null, null, null, null,
                new ModuleSummary.Gc(null, null, null), null, null, null, 0, 0, 0, Map.of(), Map.of(), null, ratio, ratio, ratio, null, twinOf, null,
                null, 0, runs, null);
    }

    @Test
    void theConditionsSayEveryRowSettledOnlyWhenEveryRowDid() {
        Environment environment = Environment.collect(BenchmarkSettings.from(new Properties(), Map.of()), List.of(TEMPLATE_MGET, REACTIVE_MGET),
                "6.2.11", "embedded", "5.6.3", "shared", null, Path.of(".."));

        assertThat(environment.settled(2).conditions()).contains("every row warmed up until it settled first");
        assertThat(environment.settled(1).conditions()).contains("every row warmed up first, 1 of 2 until it settled")
                .doesNotContain("every row warmed up until it settled");
        assertThat(environment.conditions()).as("a run of scenarios only says nothing of the headline's warm-up")
                .doesNotContain("settled").doesNotContain("steady");
        assertThat(environment.warmup()).as("the rule, with the time limit that ends it whatever the row did")
                .doesNotContain("were quiet", "steady state").contains("or 20 s have passed", "or until 12 s have passed");
    }

    @Test
    void namesTheCommandThatRepeatsTheRunWithoutAPassword() {
        Properties properties = new Properties();
        properties.setProperty("benchmark.quick", "true");
        properties.setProperty("benchmark.modules", "in-memory,template-mget");
        properties.setProperty("benchmark.jvmArgs", "-Xms1g -Xmx1g");
        properties.setProperty("benchmark.redisUrl", "redis://:secret@redis.example:6379");
        properties.setProperty("java.version", "17");

        assertThat(Report.command(properties)).isEqualTo("./mvnw -Pbenchmark verify -Dbenchmark.jvmArgs='-Xms1g -Xmx1g' "
                + "-Dbenchmark.modules=in-memory,template-mget -Dbenchmark.quick=true -Dbenchmark.redisUrl='redis://***@redis.example:6379'");
    }

    @Test
    void failsNamingTheRowAboveTheErrorThresholdAndEveryRunWithoutSamples() {
        Report report = report(TEMPLATE_MGET, REACTIVE_MGET);

        assertThatThrownBy(report::failOnProblems).hasMessageContaining("module template-mget: 16.67 % errors in the closed model (1 of 6 samples)")
                .hasMessageContaining("module reactive-mget: throughput run 1 recorded no sample")
                .hasMessageContaining("module reactive-mget: half run 1 recorded no sample");
    }

    /** A report of two rows, one measured and one without samples, for the browser test. */
    static Report sample() {
        return new ReportTest().report(TEMPLATE_MGET, REACTIVE_MGET);
    }

    private Report report(Target... targets) {
        Properties properties = new Properties();
        properties.setProperty("benchmark.repetitions", "1");
        properties.setProperty("benchmark.rampup", "1");
        properties.setProperty("benchmark.duration", "15"); // the per-second GC figures below divide by it
        BenchmarkSettings settings = BenchmarkSettings.from(properties, Map.of());
        Verification verification = new Verification("6.2.11", "embedded", List.of(
                new Verification.Check("template-mget", new Verification.Cost(Map.of("mget", 1.0), 1, 1.0), null),
                new Verification.Check("reactive-mget", new Verification.Cost(Map.of("mget", 1.0), 1, 1.0), null)));
        List<SteadyState.Warmup> warmups = List.of(new SteadyState.Warmup("template-mget", 6, true, List.of(1990.0, 2010.0, 2000.0), 12.0, 12000, 3));
        Measured headline = new Measured(Condition.plain("headline", settings, List.of(targets)), verification, warmups, List.of(), results, null, Map.of());
        return Report.of(settings, List.of(targets), headline, new MachineSteadiness(8, List.of(100L, 101L, 99L), List.of(100L, 120L, 90L)), "5.6.3",
                CpuPlacement.apply("shared"), Path.of(".."));
    }
}
