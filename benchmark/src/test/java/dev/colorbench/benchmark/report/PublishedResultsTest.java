package dev.colorbench.benchmark.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Json;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every figure the README, the results page and the floor row's README publish is the committed reference run's
 * (docs/results/summary.json), and the pages name that run. Publishing a new run (./mvnw -Ppublish -pl benchmark -am
 * verify) without updating the pages fails here, and so does a page edited by hand to another figure.
 */
class PublishedResultsTest {

    private static final Path ROOT = Path.of("..");

    private static final List<String> PAGES = List.of("README.md", "docs/results.md", "modules/mget-floor/README.md");

    @Test
    void everyPublishedFigureIsTheReferenceRuns() throws Exception {
        Map<String, Object> summary = summary();
        PublishedFigures figures = new PublishedFigures(summary, reference());
        for (String page : PAGES) {
            assertThat(figures.problems(page, Files.readString(ROOT.resolve(page)))).as(page).isEmpty();
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void thePagesNameTheReferenceRunAndItsFilesAreThere() throws Exception {
        Map<String, Object> environment = (Map<String, Object>) summary().get("environment");
        String commit = String.valueOf(environment.get("gitCommit"));
        assertThat(environment.get("quick")).as("a reference run is a full run").isEqualTo(false);
        assertThat(commit).doesNotEndWith("-dirty");
        assertThat(Files.readString(ROOT.resolve("docs/results.md"))).contains(commit).contains(String.valueOf(environment.get("date")).substring(0, 10));
        assertThat(Files.readString(ROOT.resolve("README.md"))).contains(commit).contains("docs/results/headline.png");
        assertThat(ROOT.resolve("docs/results/report.md")).isRegularFile();
        assertThat(ROOT.resolve("docs/results/headline.png")).isRegularFile();
    }

    /**
     * The servers page quotes the published run of the servers scenario: its table rows as the run's report wrote them, every
     * other figure one the report holds, and the run named by its commit and date.
     */
    @Test
    @SuppressWarnings("unchecked")
    void theServersPageQuotesThePublishedServersRun() throws Exception {
        Path folder = ROOT.resolve(Publish.RESULTS).resolve("servers");
        Map<String, Object> environment = (Map<String, Object>) Json.MAPPER.readValue(folder.resolve("summary.json").toFile(), Map.class)
                .get("environment");
        String report = Files.readString(folder.resolve("report.md"));
        String page = Files.readString(ROOT.resolve("docs/servers.md"));

        assertThat(environment.get("quick")).as("a published run is a full run").isEqualTo(false);
        assertThat(String.valueOf(environment.get("gitCommit"))).doesNotEndWith("-dirty");
        assertThat(page).contains(String.valueOf(environment.get("gitCommit")), String.valueOf(environment.get("date")).substring(0, 10));
        assertThat(quotedFigures(page, report)).isEmpty();
    }

    @Test
    void aServersPageFigureThatTheRunDoesNotHoldIsCaught() {
        String report = "| module | TPS |\n| --- | --- |\n| mget-raw | 4,550 (4,500-4,600), 1.44 |\n\nValkey 9.1.2 1.15 to 1.44.\n";

        assertThat(quotedFigures("| mget-raw | 4,550 (4,500-4,600), 1.44 |\nValkey serves 1.44 times the TPS, 4,550 TPS.\n", report)).isEmpty();
        assertThat(quotedFigures("| mget-raw | 4,550 (4,500-4,600), 1.45 |\n", report)).singleElement().asString().contains("mget-raw");
        assertThat(quotedFigures("Valkey serves 1.46 times the TPS.\n", report)).singleElement().asString().contains("1.46");
    }

    /** A page's table rows that its run's report does not hold, and its figures (TPS, µs, ×, times, ratios) that it does not hold. */
    static List<String> quotedFigures(String page, String report) {
        List<String> problems = new java.util.ArrayList<>();
        java.util.regex.Pattern figure = java.util.regex.Pattern.compile("(?<![\\w.])(\\d[\\d,]*(?:\\.\\d+)?)(?=\\s?(?:TPS|µs|×| times))");
        String[] lines = page.split("\n");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.startsWith("| ") && !line.startsWith("| ---") && line.matches("\\| [a-z-]+(@[a-z0-9.-]+)? \\|.*\\d.*")) {
                if (!report.contains(line)) {
                    problems.add("docs/servers.md:%d: a row the run's report does not hold: %s".formatted(i + 1, line));
                }
                continue;
            }
            java.util.regex.Matcher found = figure.matcher(line);
            while (found.find()) {
                if (!report.matches("(?s).*(?<![\\d,.])" + java.util.regex.Pattern.quote(found.group(1)) + "(?![\\d,]|\\.\\d).*")) {
                    problems.add("docs/servers.md:%d: %s is no figure of the servers run".formatted(i + 1, found.group(1)));
                }
            }
        }
        return problems;
    }

    @Test
    void aFigureThatDiffersFromTheRunIsCaught() {
        Map<String, Object> summary = Map.of("environment", Map.of(), "modules", List.of(
                Map.of("module", "template-mget", "tpsMedian", 7382.4, "ratioToReference", 15.47,
                        "cpu", Map.of("totalMicros", Map.of("median", 220.2), "moduleMicros", Map.of("median", 200.0), "storeMicros", Map.of("median", 20.2)))));
        PublishedFigures figures = new PublishedFigures(summary, "cacheable-loop");
        String right = "| pattern | x loop | CPU µs / request |\n| --- | --: | --: |\n| [template-mget](modules/template-mget) | 15.5× | 220 |\n\nIt serves 7,382 TPS at 220 µs.\n";

        assertThat(figures.problems("page", right)).isEmpty();
        assertThat(figures.problems("page", right.replace("15.5×", "15.6×"))).singleElement().asString()
                .contains("page:3: template-mget's x loop is 15.5×");
        assertThat(figures.problems("page", right.replace("| 220 |", "| 230 |"))).singleElement().asString().contains("CPU µs / request is 220");
        assertThat(figures.problems("page", right.replace("7,382 TPS", "7,400 TPS"))).singleElement().asString()
                .contains("page:5: 7,400 TPS is no figure of the reference run");
    }

    @Test
    void thePublishedHeadlineDrawsInABrowser() throws Exception {
        // judged by its screenshot as the report's browser test judges the sample's: a bar for each of its rows
        Browser browser = ReportInBrowserTest.browserOrSkip();
        Map<String, Object> summary = summary();
        String command = "./mvnw -Pbenchmark verify";
        ReportInBrowserTest.Shot drawn = ReportInBrowserTest.shoot(browser, Headline.page(summary, command), "published-headline",
                Headline.WIDTH, Headline.HEIGHT);
        ReportInBrowserTest.Shot blank = ReportInBrowserTest.shoot(browser, Headline.page(ReportInBrowserTest.blank(summary), command),
                "blank-published-headline", Headline.WIDTH, Headline.HEIGHT);
        ReportInBrowserTest.assertDrawn("the published headline", drawn, blank, summary);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> summary() throws Exception {
        Path file = ROOT.resolve(Publish.RESULTS).resolve("summary.json");
        return Json.MAPPER.readValue(file.toFile(), Map.class);
    }

    private static String reference() {
        return BenchmarkSettings.from(new Properties(), Map.of()).reference();
    }
}
