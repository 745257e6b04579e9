package dev.colorbench.benchmark.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.colorbench.benchmark.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The repeat of the reference run is a full run of the same commit, and its comparison page is what the two summaries
 * give, not a page edited by hand (docs/results.md#the-same-code-twice).
 */
class RepeatRunTest {

    private static final Path RESULTS = Path.of("..").resolve(Publish.RESULTS);

    /**
     * A published repeat is of the reference run's commit, in orders of its own, on the reference run's processor (or, published
     * elsewhere, on another), and its comparison page is the two summaries'. None is published while the reference run has no
     * repeat yet: a repeat of another commit would compare two codes.
     */
    @ParameterizedTest
    @EnumSource(value = Reproducibility.Kind.class, names = { "REPEAT", "ELSEWHERE" })
    @SuppressWarnings("unchecked")
    void aPublishedRepeatIsOfTheReferenceRunsCommitInOrdersOfItsOwnAndItsComparisonIsTheSummaries(Reproducibility.Kind kind) throws Exception {
        Path repeat = RESULTS.resolve(kind.folder);
        Map<String, Object> reference = Json.MAPPER.readValue(RESULTS.resolve("summary.json").toFile(), Map.class);
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isRegularFile(repeat.resolve("summary.json")),
                "no " + kind.name + " of the reference run is published (docs/results.md#the-same-code-twice)");
        Map<String, Object> again = Json.MAPPER.readValue(repeat.resolve("summary.json").toFile(), Map.class);
        Map<String, Object> first = (Map<String, Object>) reference.get("environment");
        Map<String, Object> second = (Map<String, Object>) again.get("environment");
        assertThat(second.get("gitCommit")).isEqualTo(first.get("gitCommit"));
        assertThat(second.get("quick")).isEqualTo(false);
        assertThat(second.get("seed")).as("the repeat draws orders of its own").isNotNull().isNotEqualTo(first.get("seed"));
        assertThat(second.get("cpuModel").equals(first.get("cpuModel"))).as("on the reference run's processor").isEqualTo(kind == Reproducibility.Kind.REPEAT);
        assertThat(Files.readString(repeat.resolve("comparison.md")))
                .isEqualTo(Reproducibility.markdown(Report.Summary.of(reference), Report.Summary.of(again), kind));
    }

    /** A repeat is published as the repeat on the reference run's processor only, and elsewhere on another; with its timeline. */
    @Test
    void aRepeatIsPublishedByTheProcessorItRanOnWithItsTimeline(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path results = Files.createDirectories(dir.resolve("results"));
        Path run = Files.createDirectories(dir.resolve("run"));
        Json.MAPPER.writeValue(results.resolve("summary.json").toFile(), ranked(Map.of("cores", 2, "cpuModel", "AMD EPYC"), 100, 200));
        Files.writeString(run.resolve("report.md"), "report");
        Files.writeString(run.resolve("timeline.json"), "{\"total\":4100}");
        Json.MAPPER.writeValue(run.resolve("summary.json").toFile(), ranked(Map.of("cores", 2, "cpuModel", "Intel(R) Xeon(R) Processor", "seed", 2), 100, 200));
        org.assertj.core.api.Assertions.assertThatIllegalStateException().isThrownBy(() -> Publish.publishBeside(run, results, Reproducibility.Kind.REPEAT))
                .withMessageContaining("ran on Intel(R) Xeon(R) Processor");
        Publish.publishBeside(run, results, Reproducibility.Kind.ELSEWHERE);
        assertThat(results.resolve("elsewhere").resolve("timeline.json")).content().isEqualTo("{\"total\":4100}");

        Json.MAPPER.writeValue(run.resolve("summary.json").toFile(), ranked(Map.of("cores", 2, "cpuModel", "AMD EPYC", "seed", 2), 100, 200));
        org.assertj.core.api.Assertions.assertThatIllegalStateException().isThrownBy(() -> Publish.publishBeside(run, results, Reproducibility.Kind.ELSEWHERE))
                .withMessageContaining("published as 'repeat'");
        Publish.publishBeside(run, results, Reproducibility.Kind.REPEAT);
        assertThat(results.resolve("repeat").resolve("comparison.md")).content().startsWith("# The same commit twice").contains("Both ran on 2 cores of AMD EPYC.");
        assertThat(results.resolve("repeat").resolve("timeline.json")).isRegularFile();
    }

    /**
     * A published run with the CPU halved is a full run under a quota of at most half its cores, and its comparison page is
     * the two summaries', whatever commit each ran (docs/measuring.md#on-a-slower-machine).
     */
    @Test
    @SuppressWarnings("unchecked")
    void aPublishedRunWithTheCpuHalvedRanUnderItsQuotaAndItsComparisonIsTheSummaries() throws Exception {
        Path halved = RESULTS.resolve(Reproducibility.Kind.HALVED.folder);
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isRegularFile(halved.resolve("summary.json")),
                "no run with the CPU halved is published (docs/measuring.md#on-a-slower-machine)");
        Map<String, Object> reference = Json.MAPPER.readValue(RESULTS.resolve("summary.json").toFile(), Map.class);
        Map<String, Object> run = Json.MAPPER.readValue(halved.resolve("summary.json").toFile(), Map.class);
        Map<String, Object> environment = (Map<String, Object>) run.get("environment");
        assertThat(environment.get("quick")).isEqualTo(false);
        assertThat(((Number) environment.get("cpuQuota")).doubleValue()).as("its quota, at most half its cores")
                .isLessThanOrEqualTo(((Number) environment.get("cores")).doubleValue() / 2);
        assertThat(Files.readString(halved.resolve("comparison.md"))).isEqualTo(Reproducibility.markdown(Report.Summary.of(reference), Report.Summary.of(run), Reproducibility.Kind.HALVED));
    }

    /**
     * A published run of fewer rows is of a published full run's commit, on its processor and host build, on some of its rows,
     * and its comparison page is the two summaries'; each of its rows' x floor holds within the full run's interval
     * (docs/measuring.md#the-floor).
     */
    @Test
    @SuppressWarnings("unchecked")
    void aPublishedRunOfFewerRowsIsOfAFullRunsCommitAndMachineAndItsComparisonIsTheSummaries() throws Exception {
        Path fewer = RESULTS.resolve(Reproducibility.Kind.FEWER_ROWS.folder);
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isRegularFile(fewer.resolve("summary.json")), "no run of fewer rows is published");
        Map<String, Object> run = Json.MAPPER.readValue(fewer.resolve("summary.json").toFile(), Map.class);
        Reproducibility.Base base = Publish.fullRunOf(RESULTS, Report.Summary.of(run));
        Map<String, Object> full = Json.MAPPER.readValue(RESULTS.resolve(base.folder()).resolve("summary.json").toFile(), Map.class);
        Map<String, Object> first = (Map<String, Object>) full.get("environment");
        Map<String, Object> second = (Map<String, Object>) run.get("environment");
        for (String key : List.of("gitCommit", "cpuModel", "os")) {
            assertThat(second.get(key)).as(key).isEqualTo(first.get(key));
        }
        assertThat(second.get("quick")).isEqualTo(false);
        assertThat(((List<Object>) run.get("modules")).size()).isLessThan(((List<Object>) full.get("modules")).size());
        assertThat(Files.readString(fewer.resolve("comparison.md")))
                .isEqualTo(Reproducibility.markdown(base, Report.Summary.of(full), Report.Summary.of(run), Reproducibility.Kind.FEWER_ROWS));
    }

    /**
     * A run of fewer rows is refused unless it is of a published full run's commit, on its processor and host build, with only
     * its rows; it is set beside that run, the reference run or the repeat elsewhere.
     */
    @Test
    void aRunOfFewerRowsIsOfAFullRunsCommitMachineAndRows(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path results = Files.createDirectories(dir.resolve("results"));
        Path run = Files.createDirectories(dir.resolve("run"));
        Map<String, Object> epyc = Map.of("cpuModel", "AMD EPYC", "os", "Linux 6.18 v1045");
        Map<String, Object> xeon = Map.of("cores", 2, "cpuModel", "Intel(R) Xeon(R) Processor", "os", "Linux 6.18 v1045");
        Json.MAPPER.writeValue(results.resolve("summary.json").toFile(), run(epyc, rounds("a", 100), rounds("b", 200), rounds("c", 300)));
        Files.writeString(run.resolve("report.md"), "report");
        for (Map<String, Object> other : List.of(run(Map.of("cpuModel", "AMD EPYC", "os", "Linux 6.18 v1045", "gitCommit", "def"), rounds("a", 100), rounds("b", 200)),
                run(xeon, rounds("a", 100), rounds("b", 200)),
                run(Map.of("cpuModel", "AMD EPYC", "os", "Linux 6.18 v1098"), rounds("a", 100), rounds("b", 200)),
                run(epyc, rounds("a", 100), rounds("d", 200)),
                run(epyc, rounds("a", 100), rounds("b", 200), rounds("c", 300)))) {
            Json.MAPPER.writeValue(run.resolve("summary.json").toFile(), other);
            org.assertj.core.api.Assertions.assertThatIllegalStateException().isThrownBy(() -> Publish.publishBeside(run, results, Reproducibility.Kind.FEWER_ROWS))
                    .withMessageContaining("of some of its rows");
        }
        Json.MAPPER.writeValue(run.resolve("summary.json").toFile(), run(epyc, rounds("a", 100), rounds("c", 300)));
        Publish.publishBeside(run, results, Reproducibility.Kind.FEWER_ROWS);
        assertThat(results.resolve("fewer-rows").resolve("comparison.md")).content().startsWith("# The same commit on fewer rows")
                .contains("from docs/results/summary.json", "rows' intervals overlap the reference run's");

        Path elsewhere = Files.createDirectories(results.resolve(Reproducibility.Kind.ELSEWHERE.folder));
        Json.MAPPER.writeValue(elsewhere.resolve("summary.json").toFile(), run(xeon, rounds("a", 110), rounds("b", 210), rounds("c", 310)));
        Json.MAPPER.writeValue(run.resolve("summary.json").toFile(), run(xeon, rounds("a", 110), rounds("b", 210)));
        Publish.publishBeside(run, results, Reproducibility.Kind.FEWER_ROWS);
        assertThat(results.resolve("fewer-rows").resolve("comparison.md")).content().contains("from docs/results/elsewhere/summary.json",
                "| row | ratio | elsewhere (95 % interval) | fewer-rows (95 % interval) | moved |", "Both ran on 2 cores of Intel(R) Xeon(R) Processor.",
                "overlap the repeat elsewhere's");
    }

    /** docs/measuring.md links the run with the CPU halved, and the run of fewer rows, only when one is published. */
    @ParameterizedTest
    @EnumSource(value = Reproducibility.Kind.class, names = { "HALVED", "FEWER_ROWS" })
    void measuringSaysWhetherSuchARunIsPublished(Reproducibility.Kind kind) throws Exception {
        String page = Files.readString(Path.of("..", "docs", "measuring.md"));
        boolean published = Files.isRegularFile(RESULTS.resolve(kind.folder).resolve("summary.json"));
        assertThat(page.contains("results/" + kind.folder + "/comparison.md")).as("docs/measuring.md links " + kind.name + " only when one is published")
                .isEqualTo(published);
    }

    @ParameterizedTest
    @EnumSource(value = Reproducibility.Kind.class, names = { "REPEAT", "ELSEWHERE" })
    void theRepeatsPageSaysWhetherARepeatIsPublished(Reproducibility.Kind kind) throws Exception {
        String page = Files.readString(Path.of("..", "docs", "results.md"));
        boolean published = Files.isRegularFile(RESULTS.resolve(kind.folder).resolve("summary.json"));
        assertThat(page.contains("results/" + kind.folder + "/comparison.md")).as("docs/results.md links " + kind.name + " only when one is published")
                .isEqualTo(published);
    }

    @Test
    void eachRatioIsSetBesideItsRepeatWithHowFarItMoved() {
        Map<String, Object> reference = run(Map.of("estimate", 20.0, "low", 19.0, "high", 21.0), Map.of("estimate", 1.5, "low", 1.45, "high", 1.55));
        Map<String, Object> repeat = run(Map.of("estimate", 22.0, "low", 21.5, "high", 22.5), Map.of("estimate", 1.5, "low", 1.48, "high", 1.52));

        List<Reproducibility.Pair> pairs = Reproducibility.pairs(Report.Summary.of(reference), Report.Summary.of(repeat));
        assertThat(pairs).extracting(pair -> pair.ratio().name()).containsExactly("x loop", "x floor");
        assertThat(pairs.get(0).movedPercent()).isCloseTo(10, within(1e-9));
        assertThat(pairs.get(0).intervalsOverlap()).isFalse();
        assertThat(pairs.get(1).movedPercent()).isCloseTo(0, within(1e-9));
        assertThat(Reproducibility.markdown(Report.Summary.of(reference), Report.Summary.of(repeat))).contains("| mget-raw | x loop | 20.00 (19.00-21.00) | 22.00 (21.50-22.50) | 10.0 % |",
                "The largest move: mget-raw's x loop, 10.0 %. Moved more than 5 %: 1 of 2.");
    }

    /** A row whose x floor moved in a run of fewer rows is named, and so is its x loop where that moved too: no floor enters it. */
    @Test
    void aRunOfFewerRowsNamesTheRowsWhoseFloorRatioMovedAndWhetherTheirLoopRatioDid() {
        Map<String, Object> reference = run(Map.of("estimate", 20.0, "low", 19.0, "high", 21.0), Map.of("estimate", 1.5, "low", 1.45, "high", 1.55));
        Map<String, Object> moved = run(Map.of("estimate", 24.0, "low", 23.0, "high", 25.0), Map.of("estimate", 1.8, "low", 1.7, "high", 1.9));
        Map<String, Object> floorOnly = run(Map.of("estimate", 20.5, "low", 19.5, "high", 21.5), Map.of("estimate", 1.8, "low", 1.7, "high", 1.9));

        assertThat(Reproducibility.markdown(Report.Summary.of(reference), Report.Summary.of(reference), Reproducibility.Kind.FEWER_ROWS))
                .contains("x floor, which must not depend on which rows ran: 1 of 1 rows' intervals overlap the reference run's.\n")
                .doesNotContain("x loop, which no floor enters");
        assertThat(Reproducibility.markdown(Report.Summary.of(reference), Report.Summary.of(moved), Reproducibility.Kind.FEWER_ROWS))
                .contains("0 of 1 rows' intervals overlap the reference run's; apart: mget-raw.", "x loop, which no floor enters, is apart too for mget-raw");
        assertThat(Reproducibility.markdown(Report.Summary.of(reference), Report.Summary.of(floorOnly), Reproducibility.Kind.FEWER_ROWS))
                .contains("apart: mget-raw.").doesNotContain("x loop, which no floor enters");
    }

    private static Map<String, Object> run(Map<String, Object> loop, Map<String, Object> floor) {
        return Map.of("environment", Map.of("date", "2026-11-27", "gitCommit", "abc"),
                "modules", List.of(Map.of("module", "mget-raw", "ratioToReferenceInterval", loop, "floorRatioInterval", floor)));
    }

    @Test
    void aRunWithTheCpuHalvedSaysItsQuotaItsSettledRowsAndEveryPairItRanksTheOtherWayRound() {
        Map<String, Object> reference = ranked(Map.of("cores", 2, "rowsSettled", 2, "modules", List.of("a", "b")), 100, 200);
        Map<String, Object> halved = ranked(Map.of("gitCommit", "def", "cores", 2, "cpuQuota", 1.0, "rowsSettled", 1, "modules", List.of("a", "b")), 300, 200);

        assertThat(Reproducibility.markdown(Report.Summary.of(reference), Report.Summary.of(halved), Reproducibility.Kind.HALVED)).startsWith("# The reference run and a run with the CPU halved")
                .contains("of commits `abc` and `def`", "The second ran on 2 cores under a CPU quota of 1 of them (a cgroup's).",
                        "Rows settled in their warm-up: 2 of 2 in the reference run, 1 of 2 in the run with the CPU halved.",
                        "of 1 pair of rows ranked apart in both runs, 1 is in the opposite order: a before b in the reference run.");
        assertThat(Reproducibility.markdown(Report.Summary.of(reference), Report.Summary.of(ranked(Map.of("gitCommit", "abc"), 110, 210)), Reproducibility.Kind.REPEAT))
                .contains("both of commit `abc`", "of 1 pair of rows ranked apart in both runs, none is in the opposite order.");
    }

    /**
     * Two rows are level where the interval of their ratio within each round holds 1, whatever their own intervals or ranks: such
     * a pair is not ranked apart, nor reversed. In the second run a and b differ by 4 % with rounds that wobble by as much.
     */
    @Test
    void rowsWhoseRatioHoldsOneAreNotRankedApart() {
        Map<String, Object> reference = run(Map.of(), rounds("b", 100), rounds("a", 200), rounds("c", 300));
        Map<String, Object> other = run(Map.of("date", "2026-11-29", "gitCommit", "def"), rounds("c", 40), wobbling("a", 52), rounds("b", 50));
        assertThat(Ranking.of(Report.Summary.of(other))).extracting(Ranking.Place::id, Ranking.Place::rank, Ranking.Place::levelWith)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("c", 1, null), org.assertj.core.groups.Tuple.tuple("b", 2, null),
                        org.assertj.core.groups.Tuple.tuple("a", 2, "b"));

        assertThat(Reproducibility.reversed(Report.Summary.of(reference), Report.Summary.of(other))).extracting(pair -> pair[0] + " " + pair[1]).as("b and a level in the second run")
                .containsExactlyInAnyOrder("b c", "a c");
        assertThat(Reproducibility.markdown(Report.Summary.of(reference), Report.Summary.of(other), Reproducibility.Kind.HALVED))
                .contains("of 2 pairs of rows ranked apart in both runs, 2 are in the opposite order: a before c in the reference run, b before c in the reference run.");
    }

    /**
     * A pair one run ranks apart and the other calls level counts against the two runs when the level run's estimate leans the
     * other way: a reversal between two runs that both rank a pair needs both wrong, this needs one. And a page of two runs on
     * different processors says so.
     */
    @Test
    void aPairRankedApartInOneRunThatLeansTheOtherWayInTheOtherIsNamedAndSoIsAnotherProcessor() {
        Map<String, Object> reference = run(Map.of("cores", 2, "cpuModel", "AMD EPYC"), rounds("a", 100), rounds("b", 200));
        Map<String, Object> other = run(Map.of("cores", 2, "cpuModel", "Intel(R) Xeon(R) Processor"), wobbling("a", 52), rounds("b", 50));

        assertThat(Reproducibility.leaningTheOtherWay(Report.Summary.of(reference), Report.Summary.of(other), "the reference run", "the repeat"))
                .extracting(pair -> String.join(" ", pair)).containsExactly("a b the reference run");
        assertThat(Reproducibility.markdown(Report.Summary.of(reference), Report.Summary.of(other), Reproducibility.Kind.REPEAT)).contains(
                "The reference run ran on 2 cores of AMD EPYC, the repeat on 2 cores of Intel(R) Xeon(R) Processor: another processor",
                "of 0 pairs of rows ranked apart in both runs, none is in the opposite order.",
                "Of 1 pair of rows ranked apart in one run and level in the other, 1 leans the other way in the run that calls it level:"
                        + " a before b in the reference run.");
        assertThat(Reproducibility.markdown(Report.Summary.of(reference), Report.Summary.of(reference), Reproducibility.Kind.REPEAT))
                .contains("Both ran on 2 cores of AMD EPYC.", "Of 0 pairs of rows ranked apart in one run and level in the other, none leans");
    }

    @Test
    void aRunWithoutAQuotaOfHalfItsCoresIsNotPublishedAsHalved(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path results = Files.createDirectories(dir.resolve("results"));
        Path run = Files.createDirectories(dir.resolve("run"));
        Json.MAPPER.writeValue(results.resolve("summary.json").toFile(), ranked(Map.of(), 100, 200));
        Files.writeString(run.resolve("report.md"), "report");
        for (Map<String, Object> environment : List.<Map<String, Object>>of(Map.of("cores", 2), Map.of("cores", 4, "cpuQuota", 3.0),
                Map.of("cores", 2, "cpuQuota", 1.0, "quick", true))) {
            Json.MAPPER.writeValue(run.resolve("summary.json").toFile(), ranked(environment, 100, 200));
            org.assertj.core.api.Assertions.assertThatIllegalStateException().isThrownBy(() -> Publish.publishBeside(run, results, Reproducibility.Kind.HALVED))
                    .withMessageContaining("under a CPU quota of at most half its cores");
        }
        Json.MAPPER.writeValue(run.resolve("summary.json").toFile(), ranked(Map.of("cores", 2, "cpuQuota", 1.0), 100, 200));
        Publish.publishBeside(run, results, Reproducibility.Kind.HALVED);
        assertThat(results.resolve("halved").resolve("comparison.md")).content().startsWith("# The reference run and a run with the CPU halved");
    }

    /** A run of two rows, a and b, at these CPU µs a request, each within 3 % a round; its environment these entries over commit abc and a date. */
    private static Map<String, Object> ranked(Map<String, Object> environment, double a, double b) {
        return run(environment, rounds("a", a), rounds("b", b));
    }

    /** A run of these rows, in 8 rounds in 2 forks; its environment these entries over commit abc and a date. */
    @SafeVarargs
    private static Map<String, Object> run(Map<String, Object> environment, Map<String, Object>... rows) {
        Map<String, Object> env = new java.util.HashMap<>(Map.of("date", "2026-11-28", "gitCommit", "abc", "forks", 2, "repetitions", 8));
        env.putAll(environment);
        return Map.of("environment", env, "modules", List.of(rows));
    }

    /** A row at this CPU µs a request, its eight rounds within 3 % of it, its own figure a rough interval around it. */
    private static Map<String, Object> rounds(String module, double micros) {
        return row(module, micros, new double[] { 0.99, 1.01, 1.0, 1.02, 0.98, 1.0, 1.01, 0.99 });
    }

    /** The same, its rounds wobbling by 8 %, in no order. */
    private static Map<String, Object> wobbling(String module, double micros) {
        return row(module, micros, new double[] { 0.92, 1.08, 1.0, 0.95, 1.06, 0.93, 1.07, 1.0 });
    }

    private static Map<String, Object> row(String module, double micros, double[] shape) {
        List<Map<String, Object>> runs = new java.util.ArrayList<>();
        for (int round = 1; round <= shape.length; round++) {
            runs.add(Map.of("phase", dev.colorbench.benchmark.plan.Phase.THROUGHPUT.label(), "repetition", round, "moduleCpuMicros", micros * shape[round - 1],
                    "storeCpuMicros", 0.0));
        }
        return Map.of("module", module, "cpuMicros", Map.of("estimate", micros, "low", micros * 0.95, "high", micros * 1.05), "runs", runs);
    }
}
