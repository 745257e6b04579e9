package dev.colorbench.benchmark.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.colorbench.benchmark.Json;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every figure the README, the results page and the modules' READMEs publish is the committed reference run's
 * (docs/results/summary.json), of the row and column it stands in (PublishedFigures), and the pages name that run.
 * Publishing a new run (./mvnw -Ppublish -pl benchmark -am verify) without updating the pages fails here, and so does a
 * page edited by hand to another figure, or to another row's. A new column in a page's table or in report.md fails until
 * PublishedFigures.COLUMNS says which field it holds.
 */
class PublishedResultsTest {

    private static final Path ROOT = Path.of("..");

    /** The pages that quote the reference run: the README, the results page and every module's README. */
    static List<String> pages() throws java.io.IOException {
        List<String> pages = new java.util.ArrayList<>(List.of("README.md", "docs/results.md"));
        try (var modules = Files.list(ROOT.resolve("modules"))) {
            modules.map(module -> module.resolve("README.md")).filter(Files::isRegularFile).sorted()
                    .forEach(readme -> pages.add(ROOT.relativize(readme).toString()));
        }
        return pages;
    }

    /**
     * The reference run's figures; its aggregates are those of its report's sentences and of the comparisons with its repeats
     * (docs/results/repeat/comparison.md and docs/results/elsewhere/comparison.md, each written from the two summaries), which
     * the pages quote on what carries.
     */
    static PublishedFigures referenceRun() throws Exception {
        StringBuilder text = new StringBuilder(Files.readString(ROOT.resolve(Publish.RESULTS).resolve("report.md")));
        for (Reproducibility.Kind kind : Reproducibility.Kind.values()) {
            Path comparison = ROOT.resolve(Publish.RESULTS).resolve(kind.folder).resolve("comparison.md");
            if (Files.isRegularFile(comparison)) {
                text.append("\n\n").append(comparison(comparison));
            }
        }
        return PublishedFigures.ofRun(summary(), text.toString());
    }

    /** The comparison's sentences only: its table's figures are the two runs' own, each checked by its run. */
    private static String comparison(Path comparison) throws Exception {
        return Files.readAllLines(comparison).stream().filter(line -> !line.startsWith("|")).collect(java.util.stream.Collectors.joining("\n"));
    }

    /**
     * Every figure of every page is a figure of the row and column it stands in, in the reference run (PublishedFigures); and
     * every cell of report.md's tables, where the CPU goes among them, is the one summary.json holds for its row and column.
     */
    @Test
    void everyPublishedFigureIsTheReferenceRuns() throws Exception {
        PublishedFigures figures = referenceRun();
        List<String> problems = new java.util.ArrayList<>();
        for (String page : pages()) {
            problems.addAll(figures.problems(page, Files.readString(ROOT.resolve(page))));
        }
        String report = Publish.RESULTS + "/report.md";
        problems.addAll(figures.tableProblems(report, Files.readString(ROOT.resolve(report))));
        assertThat(problems).isEmpty();
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
     * other figure one of the row its sentence names (or, naming none, one of the report's own sentences), and the run named
     * by its commit and date.
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
        Map<String, Object> summary = Json.MAPPER.readValue(folder.resolve("summary.json").toFile(), Map.class);
        assertThat(PublishedFigures.ofServersRun(summary, report).problems("docs/servers.md", page)).isEmpty();
    }

    @Test
    void aServersPageFigureThatTheRunDoesNotHoldIsCaught() {
        String report = "| module | TPS |\n| --- | --- |\n| mget-raw | 4,550 (4,500-4,600), 1.44 |\n\nValkey 9.1.2 1.15 to 1.44.\n";

        assertThat(quotedFigures("| mget-raw | 4,550 (4,500-4,600), 1.44 |\nValkey serves 1.44 times the TPS, 4,550 TPS.\n", report)).isEmpty();
        assertThat(quotedFigures("| mget-raw | 4,550 (4,500-4,600), 1.45 |\n", report)).singleElement().asString().contains("mget-raw");
        assertThat(quotedFigures("Valkey serves 1.46 times the TPS.\n", report)).singleElement().asString().contains("1.46");
    }

    /**
     * The pages that quote a published scenario run (the scenario pages, the README, a module's README) do so between {@code <!-- quotes docs/results/<run> -->} and
     * {@code <!-- end of quote -->}: each quote's table rows as that run's report wrote them, each of its figures (TPS, µs,
     * ×, times) one the report holds, and the run named in the quote by its commit and date. A page that quotes no run
     * has nothing checked here; a quote of a run that is not published fails.
     */
    @Test
    @SuppressWarnings("unchecked")
    void theScenarioPagesQuoteTheirPublishedRuns() throws Exception {
        java.util.regex.Pattern quote = java.util.regex.Pattern.compile("(?s)<!-- quotes (docs/results(?:/[a-z0-9-]+)?) -->(.*?)<!-- end of quote -->");
        int quotes = 0;
        List<String> files = new java.util.ArrayList<>(List.of("docs/scenarios.md", "docs/workload.md", "docs/fleet.md", "docs/cluster.md",
                "docs/servers.md", "docs/measuring.md"));
        // the pages that quote the reference run may quote a scenario's run within a quote, which the reference's check leaves out
        files.addAll(pages());
        for (String file : files) {
            String text = Files.readString(ROOT.resolve(file));
            java.util.regex.Matcher found = quote.matcher(text);
            while (found.find()) {
                quotes++;
                Path folder = ROOT.resolve(found.group(1));
                assertThat(folder.resolve("summary.json")).as("%s quotes %s", file, found.group(1)).isRegularFile();
                Map<String, Object> environment = (Map<String, Object>) Json.MAPPER.readValue(folder.resolve("summary.json").toFile(), Map.class)
                        .get("environment");
                assertThat(environment.get("quick")).as("a published run is a full run").isEqualTo(false);
                assertThat(found.group(2)).as("%s's quote of %s names its run", file, found.group(1))
                        .contains(String.valueOf(environment.get("gitCommit")).substring(0, 12), String.valueOf(environment.get("date")).substring(0, 10));
                // the quote's lines numbered as the page's
                String page = "\n".repeat((int) text.substring(0, found.start(2)).chars().filter(c -> c == '\n').count()) + found.group(2);
                assertThat(quotedFigures(file, page, Files.readString(folder.resolve("report.md")))).isEmpty();
            }
        }
        assertThat(quotes).as("the values, workload, cluster and clients runs are quoted").isGreaterThanOrEqualTo(4);
    }

    /**
     * A run time a page gives is the run's own, from the {@code timeline.json} published with it: within a quote of a run, "N
     * minutes" is its whole time and "N warming", "N under load" and "N starting the modules" its stages, each in whole minutes.
     * A quote of a run published without a timeline gives no run time. And the README's "about N minutes" for the benchmark is
     * the repeat's time, the run that had its machine alone, to the nearest five minutes.
     */
    @Test
    void theRunTimesThePagesGiveAreThoseOfThePublishedTimelines() throws Exception {
        java.util.regex.Pattern quote = java.util.regex.Pattern.compile("(?s)<!-- quotes (docs/results(?:/[a-z0-9-]+)?) -->(.*?)<!-- end of quote -->");
        List<String> files = new java.util.ArrayList<>(List.of("docs/scenarios.md", "docs/workload.md", "docs/fleet.md", "docs/cluster.md",
                "docs/servers.md", "docs/measuring.md"));
        files.addAll(pages());
        List<String> problems = new java.util.ArrayList<>();
        for (String file : files) {
            java.util.regex.Matcher found = quote.matcher(Files.readString(ROOT.resolve(file)));
            while (found.find()) {
                problems.addAll(runTimeProblems(file + " quoting " + found.group(1), found.group(2), timeline(ROOT.resolve(found.group(1)))));
            }
        }
        assertThat(problems).isEmpty();
        Map<String, Long> repeat = timeline(ROOT.resolve(Publish.RESULTS).resolve(Reproducibility.Kind.REPEAT.folder));
        org.junit.jupiter.api.Assumptions.assumeTrue(repeat != null, "no repeat with its timeline is published");
        long minutes = Math.round(repeat.get("total") / 300.0) * 5;
        assertThat(Files.readString(ROOT.resolve("README.md"))).contains("./mvnw -Pbenchmark verify     # the benchmark: about %d minutes".formatted(minutes));
    }

    @Test
    void aRunTimeThatIsNotTheTimelinesIsCaught() {
        Map<String, Long> timeline = Map.of("warming up", 2_350L, "JMeter", 1_330L, "starting the modules", 290L, "total", 4_100L);

        assertThat(runTimeProblems("page", "It took 68 minutes: 39 warming, 22 under load and 5 starting the modules.", timeline)).isEmpty();
        assertThat(runTimeProblems("page", "It took 70 minutes: 39 warming.", timeline)).singleElement().asString().contains("70 minutes");
        assertThat(runTimeProblems("page", "It took 68 minutes: 40 warming.", timeline)).singleElement().asString().contains("40 warming");
        assertThat(runTimeProblems("page", "It took 68 minutes, 40 of them warming.", timeline)).singleElement().asString().contains("40 of them warming");
        assertThat(runTimeProblems("page", "It took 68 minutes.", null)).singleElement().asString().contains("no timeline.json");
        assertThat(runTimeProblems("page", "Two rounds a minute.", null)).isEmpty();
    }

    /** The run's stages in seconds, and its {@code total}, from the timeline.json published with it; null without one. */
    @SuppressWarnings("unchecked")
    private static Map<String, Long> timeline(Path folder) throws Exception {
        Path file = folder.resolve("timeline.json");
        if (!Files.isRegularFile(file)) {
            return null;
        }
        Map<String, Long> seconds = new java.util.HashMap<>();
        ((Map<String, Number>) Json.MAPPER.readValue(file.toFile(), Map.class)).forEach((stage, value) -> seconds.put(stage, value.longValue()));
        return seconds;
    }

    /** The run times in {@code quote} that are not {@code timeline}'s, in whole minutes. */
    static List<String> runTimeProblems(String where, String quote, Map<String, Long> timeline) {
        Map<String, String> stages = Map.of("minutes", "total", "warming", "warming up", "under load", "JMeter", "starting the modules", "starting the modules");
        java.util.regex.Matcher time = java.util.regex.Pattern.compile("(\\d+)\\s+(?:of\\s+them\\s+)?(minutes|warming|under\\s+load|starting\\s+the\\s+modules)").matcher(quote);
        List<String> problems = new java.util.ArrayList<>();
        while (time.find()) {
            String stage = stages.get(time.group(2).replaceAll("\\s+", " "));
            if (timeline == null) {
                problems.add("%s: %s, but the run was published with no timeline.json".formatted(where, time.group()));
            }
            else if (timeline.get(stage) == null || Math.round(timeline.get(stage) / 60.0) != Long.parseLong(time.group(1))) {
                problems.add("%s: %s, but its timeline.json gives %s s for %s".formatted(where, time.group(), timeline.get(stage), stage));
            }
        }
        return problems;
    }

    /** A page's table rows that its run's report does not hold, and its figures (TPS, µs, ×, times, ratios) that it does not hold. */
    static List<String> quotedFigures(String page, String report) {
        return quotedFigures("docs/servers.md", page, report);
    }

    /** The same, for the quote in {@code file}. */
    static List<String> quotedFigures(String file, String page, String report) {
        List<String> problems = new java.util.ArrayList<>();
        // a figure with its unit after it, or a ratio written "x 0.72"
        java.util.regex.Pattern figure = java.util.regex.Pattern.compile("(?<![\\w.])(\\d[\\d,]*(?:\\.\\d+)?)(?=\\s?(?:TPS|µs|×| times))|(?<=\\bx )(\\d+\\.\\d+)");
        String[] lines = page.split("\n");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.startsWith("| ") && !line.startsWith("| ---") && line.matches("\\| [a-z+-]+(@[a-z0-9.-]+)? \\|.*\\d.*")) {
                if (!report.contains(line)) {
                    problems.add("%s:%d: a row the run's report does not hold: %s".formatted(file, i + 1, line));
                }
                continue;
            }
            java.util.regex.Matcher found = figure.matcher(line);
            while (found.find()) {
                String number = (found.group(1) != null) ? found.group(1) : found.group(2);
                if (!report.matches("(?s).*(?<![\\d,.])" + java.util.regex.Pattern.quote(number) + "(?![\\d,]|\\.\\d).*")) {
                    problems.add("%s:%d: %s is no figure of the %s".formatted(file, i + 1, number,
                            file.equals("docs/servers.md") ? "servers run" : "run it quotes"));
                }
            }
        }
        return problems;
    }

    @Test
    void thePublishedHeadlineDrawsInABrowser() throws Exception {
        // judged by its screenshot as the report's browser test judges the sample's: a bar for each of its rows
        Browser browser = ReportInBrowserTest.browserOrSkip();
        // drawn as Publish draws it: summary.json read back through its records
        Map<String, Object> summary = Headline.shape(Report.Summary.read(ROOT.resolve(Publish.RESULTS).resolve("summary.json")));
        String command = "./mvnw -Pbenchmark verify";
        ReportInBrowserTest.Shot drawn = ReportInBrowserTest.shoot(browser, Headline.page(summary, command), "published-headline",
                Headline.WIDTH, Headline.HEIGHT);
        ReportInBrowserTest.Shot blank = ReportInBrowserTest.shoot(browser, Headline.page(ReportInBrowserTest.blank(summary), command),
                "blank-published-headline", Headline.WIDTH, Headline.HEIGHT);
        ReportInBrowserTest.assertDrawn("the published headline", drawn, blank, summary);
        // the committed picture is that drawing: the README shows what summary.json holds, not an older run's bars
        java.awt.image.BufferedImage committed = javax.imageio.ImageIO.read(ROOT.resolve(Publish.RESULTS).resolve("headline.png").toFile());
        assertThat(List.of(committed.getWidth(), committed.getHeight())).as("headline.png's size")
                .isEqualTo(List.of(drawn.image().getWidth(), drawn.image().getHeight()));
        assertThat(differing(committed, drawn.image())).as("share of headline.png's pixels that differ from the drawing of summary.json, "
                + drawn.png() + "; ./mvnw -Ppublish draws it again").isLessThan(0.01);
    }

    /** The share of pixels whose colour differs by more than a font's anti-aliasing does between two renders. */
    static double differing(java.awt.image.BufferedImage one, java.awt.image.BufferedImage other) {
        long differ = 0;
        for (int y = 0; y < one.getHeight(); y++) {
            for (int x = 0; x < one.getWidth(); x++) {
                int a = one.getRGB(x, y);
                int b = other.getRGB(x, y);
                int most = Math.max(Math.abs((a >> 16 & 0xff) - (b >> 16 & 0xff)),
                        Math.max(Math.abs((a >> 8 & 0xff) - (b >> 8 & 0xff)), Math.abs((a & 0xff) - (b & 0xff))));
                if (most > 48) {
                    differ++;
                }
            }
        }
        return differ / (double) (one.getWidth() * (long) one.getHeight());
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> summary() throws Exception {
        Path file = ROOT.resolve(Publish.RESULTS).resolve("summary.json");
        return Json.MAPPER.readValue(file.toFile(), Map.class);
    }
}
