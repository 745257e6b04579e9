package dev.colorbench.benchmark.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.Json;
import org.junit.jupiter.api.Test;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The check of the published figures fails where a page's figure is not its row's: each test takes a committed page, as
 * text in memory, changes one figure the way a hand edit or a stale copy would, and expects exactly that cell or sentence
 * reported. The committed pages themselves pass (PublishedResultsTest).
 */
class PublishedFiguresTest {

    private static final Path ROOT = Path.of("..");

    @Test
    void aTpsSwappedBetweenTwoRowsOfATableIsCaughtInBothCells() throws Exception {
        String page = swap(page("docs/results.md"), "9,142 (8,367-9,990)", "9,168 (8,390-10,017)");

        assertThat(PublishedResultsTest.referenceRun().problems("docs/results.md", page)).containsExactlyInAnyOrder(
                "docs/results.md:%d: in-memory's 'TPS (95 %% interval)' is '9,168 (8,390-10,017)' in the reference run, not '9,142 (8,367-9,990)'"
                        .formatted(lineOf(page, "| [in-memory](")),
                "docs/results.md:%d: near-cache's 'TPS (95 %% interval)' is '9,142 (8,367-9,990)' in the reference run, not '9,168 (8,390-10,017)'"
                        .formatted(lineOf(page, "| [near-cache](")));
    }

    @Test
    void aRatioSwappedBetweenTwoRowsOfTheVerdictIsCaught() throws Exception {
        String page = swap(page("README.md"), "| 106 (97-117) |", "| 212 (193-233) |");

        assertThat(PublishedResultsTest.referenceRun().problems("README.md", page)).containsExactlyInAnyOrder(
                "README.md:%d: near-cache's 'CPU µs / request (95 %% interval)' is '106 (97-117)' in the reference run, not '212 (193-233)'"
                        .formatted(lineOf(page, "| [near-cache](")),
                "README.md:%d: redisson-near-cache's 'CPU µs / request (95 %% interval)' is '212 (193-233)' in the reference run, not '106 (97-117)'"
                        .formatted(lineOf(page, "| [redisson-near-cache](")));
    }

    /** A quote of another published run (a scenario's) is that run's to check; the same sentence outside it is this run's. */
    @Test
    void aQuoteOfAnotherRunIsLeftToThatRunsCheck() throws Exception {
        String sentence = "\nThe near-cache row costs 999 µs a request.\n";
        String quoted = page("README.md") + "\n<!-- quotes docs/results/variants -->" + sentence + "<!-- end of quote -->\n";
        String bare = page("README.md") + "\n" + sentence;

        assertThat(PublishedResultsTest.referenceRun().problems("README.md", quoted)).isEmpty();
        assertThat(PublishedResultsTest.referenceRun().problems("README.md", bare)).singleElement().asString()
                .startsWith("README.md:%d:".formatted(lineOf(bare, "The near-cache row costs 999"))).contains("999");
    }

    /** A row ranked above a row whose interval overlaps its own: the rank is the report's rule's, not the page's order. */
    @Test
    void aRankTheIntervalsDoNotSupportIsCaught() throws Exception {
        String original = page("README.md");
        String row = "| [mget-raw](modules/mget-raw) | ";
        assertThat(original).contains(row + "5 |");
        String page = original.replace(row + "5 |", row + "4 |");

        assertThat(PublishedResultsTest.referenceRun().problems("README.md", page)).containsExactly(
                "README.md:%d: mget-raw's 'rank' is '5' in the reference run, not '4'".formatted(lineOf(page, row + "4 |")));
    }

    /** results.md's "... pipelined-get sends 148 GETs in one round trip at 412 µs" with the loop's cost: not the named row's. */
    @Test
    void anotherRowsFiguresInASentenceThatNamesOneRowAreCaught() throws Exception {
        String original = page("docs/results.md");
        assertThat(original).contains("in one round trip at 807 µs");
        String page = original.replace("in one round trip at 807 µs", "in one round trip at 8,345 µs");

        List<String> problems = PublishedResultsTest.referenceRun().problems("docs/results.md", page);

        assertThat(problems).singleElement().asString().startsWith(
                "docs/results.md:%d: 8,345 µs: it is no figure of pipelined-get, the row the sentence names: \"pipelined-get sends"
                        .formatted(lineOf(page, "at 8,345 µs")));
    }

    /** A bound one hundredth off the report's (Format.ratio rounds half up) is not the run's: redisson-near-cache's x loop high bound is 36.59. */
    @Test
    void aFigureRoundedOtherwiseThanTheReportDoesIsCaught() throws Exception {
        String page = page("docs/results.md").replace("| 33.11 (29.97-36.59) |", "| 33.11 (29.97-36.58) |");

        assertThat(PublishedResultsTest.referenceRun().problems("docs/results.md", page)).containsExactly(
                "docs/results.md:%d: redisson-near-cache's 'x loop (95 %% interval)' is '33.11 (29.97-36.59)' in the reference run, not '33.11 (29.97-36.58)'"
                        .formatted(lineOf(page, "| 33.11 (29.97-36.58) |")));
        assertThat(PublishedResultsTest.referenceRun().problems("page", "mget-floor costs 1.96 times its floor.\n")).isEmpty();
        assertThat(PublishedResultsTest.referenceRun().problems("page", "mget-floor costs 1.963 times its floor.\n")).singleElement().asString()
                .startsWith("page:1: 1.963 times: it is no 'floor' figure of mget-floor");
    }

    @Test
    void aProfileShareTiesToItsRow() throws Exception {
        String report = page(Publish.RESULTS + "/report.md");
        assertThat(report).contains("| template-mget | 3,245 | 34.7 |", "| reactive-mget | 3,447 | 22.6 |");
        String swapped = report.replace("| template-mget | 3,245 | 34.7 |", "| template-mget | 3,245 | 22.6 |")
                .replace("| reactive-mget | 3,447 | 22.6 |", "| reactive-mget | 3,447 | 34.7 |");
        PublishedFigures run = PublishedResultsTest.referenceRun();

        assertThat(run.tableProblems("report.md", swapped)).containsExactlyInAnyOrder(
                "report.md:%d: template-mget's 'JSON %%' is '34.7' in the reference run, not '22.6'".formatted(lineOf(swapped, "| template-mget | 3,245 |")),
                "report.md:%d: reactive-mget's 'JSON %%' is '22.6' in the reference run, not '34.7'".formatted(lineOf(swapped, "| reactive-mget | 3,447 |")));
        assertThat(run.problems("page", "34.7 % of template-mget's CPU is Jackson.\n")).isEmpty();
        assertThat(run.problems("page", "34.7 % of mget-raw's CPU is Jackson.\n")).containsExactly(
                "page:1: 34.7 %: it is no figure of mget-raw, the row the sentence names: \"34.7 % of mget-raw's CPU is Jackson.\"");
    }

    @Test
    void aColumnThatTheMapDoesNotKnowFailsByItsHeader() throws Exception {
        String page = page("docs/results.md").replaceFirst("\\| x floor \\(95 % interval\\) \\| % of ceiling \\(95 % interval\\) \\| \\|",
                "| x floor (95 %) | % of ceiling (95 % interval) | |");

        assertThat(PublishedResultsTest.referenceRun().problems("docs/results.md", page)).containsExactly(
                "docs/results.md:%d: the column 'x floor (95 %%)' is not in PublishedFigures.COLUMNS: add the field its cells hold, or UNCHECKED"
                        .formatted(lineOf(page, "x floor (95 %)")));
    }

    @Test
    void aSentenceThatNamesNoRowMayQuoteOnlyTheRunsAggregatesOrAnAllowedPhrase() throws Exception {
        PublishedFigures run = PublishedResultsTest.referenceRun();

        assertThat(run.problems("page", "The pipeline costs 807 µs a request.\n")).containsExactly(
                "page:1: 807 µs: the sentence names no row, and it is no aggregate figure of the reference run: \"The pipeline costs 807 µs a request.\"");
        assertThat(run.problems("page", "The pipeline (pipelined-get) costs 807 µs a request.\n")).isEmpty();
        // a figure the comparison with the repeat gives in a sentence that names its row is that row's, not the run's
        assertThat(run.problems("page", "The loop costs 8,345 µs a request.\n")).containsExactly(
                "page:1: 8,345 µs: the sentence names no row, and it is no aggregate figure of the reference run: \"The loop costs 8,345 µs a request.\"");
        assertThat(run.problems("page", "The loop (cacheable-loop) costs 8,345 µs a request.\n")).isEmpty();
        assertThat(run.problems("page", "The open model runs at half and at 80 % of each row's TPS.\n")).isEmpty();
        assertThat(run.problems("page", "A 503 is a figure of its row up to 0.1 % of its closed-model requests. Each is counted 148 times.\n")).isEmpty();
        assertThat(run.problems("page", "A row may fail 0.1 % of its requests.\n")).singleElement().asString().startsWith("page:1: 0.1 %: the sentence names no row");
    }

    @Test
    void aServersPageFigureOfAnotherRowIsCaught() throws Exception {
        Path folder = ROOT.resolve(Publish.RESULTS).resolve("servers");
        @SuppressWarnings("unchecked")
        Map<String, Object> summary = Json.MAPPER.readValue(folder.resolve("summary.json").toFile(), Map.class);
        PublishedFigures servers = PublishedFigures.ofServersRun(summary, Files.readString(folder.resolve("report.md")));
        String original = page("docs/servers.md");
        assertThat(original).contains("why mget-raw serves 0.93 times");
        String page = original.replace("why mget-raw serves 0.93 times", "why template-mget serves 0.93 times");

        assertThat(servers.problems("docs/servers.md", original)).isEmpty();
        assertThat(servers.problems("docs/servers.md", page)).singleElement().asString()
                .startsWith("docs/servers.md:%d: 0.93 times: it is no figure of template-mget, the row the sentence names".formatted(
                        lineOf(page, "template-mget serves 0.93 times")));
    }

    @Test
    void aFigureThatDiffersFromTheRunIsCaught() {
        Map<String, Object> summary = Map.of("environment", Map.of(), "modules", List.of(
                Map.of("module", "template-mget", "tpsMedian", 7382.4, "tpsMin", 7001.0, "tpsMax", 7500.0, "ratioToReference", 15.47,
                        "cpu", Map.of("totalMicros", Map.of("median", 220.2), "moduleMicros", Map.of("median", 200.0), "storeMicros", Map.of("median", 20.2)))));
        PublishedFigures figures = PublishedFigures.ofRun(summary, "");
        String right = "| pattern | x loop | CPU µs / request |\n| --- | --: | --: |\n| [template-mget](modules/template-mget) | 15.5× | 220 |\n\n"
                + "template-mget serves 7,382 TPS at 220 µs.\n";

        assertThat(figures.problems("page", right)).isEmpty();
        assertThat(figures.problems("page", right.replace("15.5×", "15.6×"))).containsExactly(
                "page:3: template-mget's 'x loop' is '15.5×' in the reference run, not '15.6×'");
        assertThat(figures.problems("page", right.replace("| 220 |", "| 230 |"))).containsExactly(
                "page:3: template-mget's 'CPU µs / request' is '220' in the reference run, not '230'");
        assertThat(figures.problems("page", right.replace("7,382 TPS", "7,400 TPS"))).containsExactly(
                "page:5: 7,400 TPS: it is no figure of template-mget, the row the sentence names: \"template-mget serves 7,400 TPS at 220 µs.\"");
        assertThat(figures.problems("page", right.replace("template-mget serves", "It serves"))).containsExactly(
                "page:5: 7,382 TPS: the sentence names no row, and it is no aggregate figure of the reference run: \"It serves 7,382 TPS at 220 µs.\"",
                "page:5: 220 µs: the sentence names no row, and it is no aggregate figure of the reference run: \"It serves 7,382 TPS at 220 µs.\"");
    }

    /** A column of a 95 % interval, "estimate (low-high)", is one line of the map; its figures are the row's in prose too. */
    @Test
    void anIntervalColumnTiesEachCellToItsRowsInterval() {
        Map<String, Object> summary = Map.of("environment", Map.of(), "modules", List.of(
                Map.of("module", "mget-floor", "floorRatioInterval", Map.of("estimate", 1.5631, "low", 1.49, "high", 1.634),
                        "tpsMedian", 7749.6, "tpsMin", 6831.9, "tpsMax", 10279.3),
                Map.of("module", "mget-raw", "floorRatioInterval", Map.of("estimate", 1.825, "low", 1.70, "high", 1.91),
                        "tpsMedian", 6896.6, "tpsMin", 5819.8, "tpsMax", 8347.3)));
        Map<String, PublishedFigures.Column> columns = Map.ofEntries(
                entry("TPS", PublishedFigures.range("tpsMedian", "tpsMin", "tpsMax", Format::grouped)),
                entry("x floor", PublishedFigures.interval("floorRatioInterval", Format::ratio)));
        PublishedFigures run = PublishedFigures.ofRun(summary, "", columns);
        String page = """
                | row | TPS | x floor |
                | --- | --: | --: |
                | [mget-floor](modules/mget-floor) | 7,750 (6,832-10,279) | 1.56 (1.49-1.63) |
                | mget-raw | 6,897 (5,820-8,347) | 1.83 (1.70-1.91) |

                mget-floor costs 1.56× its floor, 1.63× at most, and serves 7,750 TPS.
                """;

        assertThat(run.problems("page", page)).isEmpty();
        assertThat(run.problems("page", page.replace("1.56 (1.49-1.63)", "1.56 (1.49-1.64)"))).containsExactly(
                "page:3: mget-floor's 'x floor' is '1.56 (1.49-1.63)' in the reference run, not '1.56 (1.49-1.64)'");
        assertThat(run.problems("page", page.replace("1.63× at most", "1.91× at most"))).singleElement().asString()
                .startsWith("page:6: 1.91×: it is no figure of mget-floor");
        assertThat(run.problems("page", page.replace("| --: |\n", "| --: | --- |\n").replace("| row | TPS | x floor |", "| row | TPS | x floor | CPU |")))
                .containsExactly("page:1: the column 'CPU' is not in PublishedFigures.COLUMNS: add the field its cells hold, or UNCHECKED");
    }

    /** "% of the ceiling", "its floor", "the loop": the words after a figure name its column, and it is checked there. */
    @Test
    void aFigureIsCheckedInTheColumnItsWordsName() throws Exception {
        PublishedFigures run = PublishedResultsTest.referenceRun();

        assertThat(run.problems("page", "mget-floor costs 1.96× its floor.\n")).isEmpty();
        assertThat(run.problems("page", "mget-floor serves 30.61× the loop.\n")).isEmpty();
        assertThat(run.problems("page", "mget-floor costs 30.61× its floor.\n")).singleElement().asString()
                .startsWith("page:1: 30.61×: it is no 'floor' figure of mget-floor");
        assertThat(run.problems("page", "mget-floor reaches 56.4 % of the ceiling.\n")).isEmpty();
        // 37.4 % is mget-floor's, the network's share of its CPU, not its share of the ceiling
        assertThat(run.problems("page", "mget-floor's network is 37.4 % of its CPU.\n")).isEmpty();
        assertThat(run.problems("page", "mget-floor reaches 37.4 % of the ceiling.\n")).singleElement().asString()
                .startsWith("page:1: 37.4 %: it is no 'ceiling' figure of mget-floor");
    }

    /** A ratio written without a unit, as the A/A pair's are, is one of the named rows' too. */
    @Test
    void aRatioWrittenWithoutAUnitIsChecked() throws Exception {
        PublishedFigures run = PublishedResultsTest.referenceRun();
        String right = "The twin, template-mget+twin, came out at 1.01 (0.91-1.12) of template-mget's throughput.\n";

        assertThat(run.problems("page", right)).isEmpty();
        assertThat(run.problems("page", right.replace("1.01", "1.06"))).singleElement().asString()
                .startsWith("page:1: 1.06: it is no figure of template-mget+twin or template-mget");
        assertThat(run.problems("page", "Redis 6.2.11 and 1.25 s and 8.1.1 are no ratios.\n")).isEmpty();
    }

    /** A table that ranks by anything but the one figure fails on every rank it gives. */
    @Test
    void aTableThatRanksByAnotherFigureFails() throws Exception {
        String page = "| rank | pattern | % of ceiling (95 % interval) |\n| --: | --- | --: |\n| 1 | [near-cache](modules/near-cache) | 99.7 (90.2-110.2) |\n";

        assertThat(PublishedResultsTest.referenceRun().problems("page", page)).singleElement().asString()
                .contains("a table that ranks shows 'CPU µs / request (95 % interval)'");
    }

    /** The first and the second text, each where the other was. */
    private static String swap(String text, String first, String second) {
        assertThat(text).contains(first).contains(second);
        return text.replace(first, "\u0000").replace(second, first).replace("\u0000", second);
    }

    /** The number of the first line that contains the text. */
    private static int lineOf(String page, String text) {
        String[] lines = page.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].contains(text)) {
                return i + 1;
            }
        }
        throw new AssertionError("no line contains " + text);
    }

    private static String page(String path) throws Exception {
        return Files.readString(ROOT.resolve(path));
    }
}
