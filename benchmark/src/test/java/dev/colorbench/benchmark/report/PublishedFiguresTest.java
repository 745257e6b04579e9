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
        String page = swap(page("docs/results.md"), "16,934 (13,712-18,124)", "14,562 (11,710-16,353)");

        assertThat(PublishedResultsTest.referenceRun().problems("docs/results.md", page)).containsExactlyInAnyOrder(
                "docs/results.md:%d: in-memory's 'TPS' is '14,562 (11,710-16,353)' in the reference run, not '16,934 (13,712-18,124)'"
                        .formatted(lineOf(page, "| [in-memory](")),
                "docs/results.md:%d: near-cache's 'TPS' is '16,934 (13,712-18,124)' in the reference run, not '14,562 (11,710-16,353)'"
                        .formatted(lineOf(page, "| [near-cache](")));
    }

    @Test
    void aRatioSwappedBetweenTwoRowsOfTheVerdictIsCaught() throws Exception {
        String page = swap(page("README.md"), "| 62.8× |", "| 30.3× |");

        assertThat(PublishedResultsTest.referenceRun().problems("README.md", page)).containsExactlyInAnyOrder(
                "README.md:%d: near-cache's 'x loop' is '62.8×' in the reference run, not '30.3×'".formatted(lineOf(page, "| [near-cache](")),
                "README.md:%d: redisson-near-cache's 'x loop' is '30.3×' in the reference run, not '62.8×'"
                        .formatted(lineOf(page, "| [redisson-near-cache](")));
    }

    /** results.md's "near-cache answers ... (64 µs, 16,934 TPS)" with the ceiling's figures: the row the sentence names has neither. */
    @Test
    void anotherRowsFiguresInASentenceThatNamesOneRowAreCaught() throws Exception {
        String original = page("docs/results.md");
        assertThat(original).contains("(64 µs,\n  16,934 TPS)");
        String page = original.replace("(64 µs,\n  16,934 TPS)", "(69 µs,\n  14,562 TPS)");

        List<String> problems = PublishedResultsTest.referenceRun().problems("docs/results.md", page);

        assertThat(problems).hasSize(2);
        assertThat(problems.get(0)).startsWith("docs/results.md:%d: 69 µs: it is no figure of near-cache, the row the sentence names: \"near-cache answers"
                .formatted(lineOf(page, "(69 µs,")));
        assertThat(problems.get(1)).startsWith("docs/results.md:%d: 14,562 TPS: it is no figure of near-cache, the row the sentence names:"
                .formatted(lineOf(page, "14,562 TPS)")));
    }

    /** The report writes cacheable-async+flush-per-command's 57.25 round trips as 57.3 (Format.number): 57.2 is not the run's. */
    @Test
    void aFigureRoundedOtherwiseThanTheReportDoesIsCaught() throws Exception {
        String page = page("docs/results.md").replace("| 148 GET | 57.3 | 589", "| 148 GET | 57.2 | 589");

        assertThat(PublishedResultsTest.referenceRun().problems("docs/results.md", page)).containsExactly(
                "docs/results.md:%d: cacheable-async+flush-per-command's 'round trips' is '57.3' in the reference run, not '57.2'"
                        .formatted(lineOf(page, "| 57.2 |")));
        assertThat(PublishedResultsTest.referenceRun().problems("page", "mget-floor costs 1.56 times its floor.\n")).isEmpty();
        assertThat(PublishedResultsTest.referenceRun().problems("page", "mget-floor costs 1.563 times its floor.\n")).singleElement().asString()
                .startsWith("page:1: 1.563 times: it is no figure of mget-floor");
    }

    @Test
    void aProfileShareTiesToItsRow() throws Exception {
        String report = page(Publish.RESULTS + "/report.md");
        assertThat(report).contains("| template-mget | 6,666 | 34.8 |", "| reactive-mget | 6,540 | 34.6 |");
        String swapped = report.replace("| template-mget | 6,666 | 34.8 |", "| template-mget | 6,666 | 34.6 |")
                .replace("| reactive-mget | 6,540 | 34.6 |", "| reactive-mget | 6,540 | 34.8 |");
        PublishedFigures run = PublishedResultsTest.referenceRun();

        assertThat(run.tableProblems("report.md", swapped)).containsExactlyInAnyOrder(
                "report.md:%d: template-mget's 'JSON %%' is '34.8' in the reference run, not '34.6'".formatted(lineOf(swapped, "| template-mget | 6,666 |")),
                "report.md:%d: reactive-mget's 'JSON %%' is '34.6' in the reference run, not '34.8'".formatted(lineOf(swapped, "| reactive-mget | 6,540 |")));
        assertThat(run.problems("page", "34.8 % of template-mget's CPU is Jackson.\n")).isEmpty();
        assertThat(run.problems("page", "34.8 % of hash-hmget's CPU is Jackson.\n")).containsExactly(
                "page:1: 34.8 %: it is no figure of hash-hmget, the row the sentence names: \"34.8 % of hash-hmget's CPU is Jackson.\"");
    }

    @Test
    void aColumnThatTheMapDoesNotKnowFailsByItsHeader() throws Exception {
        String page = page("docs/results.md").replaceFirst("\\| x floor \\| % of ceiling \\| \\|", "| x floor (95 %) | % of ceiling | |");

        assertThat(PublishedResultsTest.referenceRun().problems("docs/results.md", page)).containsExactly(
                "docs/results.md:%d: the column 'x floor (95 %%)' is not in PublishedFigures.COLUMNS: add the field its cells hold, or UNCHECKED"
                        .formatted(lineOf(page, "x floor (95 %)")));
    }

    @Test
    void aSentenceThatNamesNoRowMayQuoteOnlyTheRunsAggregatesOrAnAllowedPhrase() throws Exception {
        PublishedFigures run = PublishedResultsTest.referenceRun();

        assertThat(run.problems("page", "The loop costs 5,557 µs a request.\n")).containsExactly(
                "page:1: 5,557 µs: the sentence names no row, and it is no aggregate figure of the reference run: \"The loop costs 5,557 µs a request.\"");
        assertThat(run.problems("page", "The loop (cacheable-loop) costs 5,557 µs a request.\n")).isEmpty();
        assertThat(run.problems("page", "The open model runs at half and at 80 % of each row's TPS.\n")).isEmpty();
        assertThat(run.problems("page", "A 503 is a figure of its row up to 0.1 % of its requests. Each is counted 148 times.\n")).isEmpty();
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
