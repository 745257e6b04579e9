package dev.colorbench.benchmark.report;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import javax.imageio.ImageIO;

import dev.colorbench.benchmark.Json;
import dev.colorbench.benchmark.RunDirectory;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * report.html and headline.html opened in a real browser (headless Chromium) and judged from outside, by their
 * screenshots: no uncaught error in Chromium's console, one bar per row on the throughput chart, in the colour of the
 * row's round trips, fastest first, from one axis; one bar of the module's CPU per row beside it; and those bars are
 * absent from the same page drawn without its figures. Broken pages (no bar, a NaN or zero figure, a NaN CPU figure, a
 * row's bar left out, a script error) are shown to fail the same check. The screenshots stay in target/browser/ to look at.
 * <p>
 * Without a browser on the machine the test says it was skipped and why; with {@code COLORBENCH_REQUIRE_BROWSER=1}, as
 * .ci/run sets it, it fails instead, so that CI cannot go green without having opened the report.
 */
class ReportInBrowserTest {

    static final String REQUIRE_BROWSER = "COLORBENCH_REQUIRE_BROWSER";

    private static final Path SCREENSHOTS = Path.of("target/browser");

    // headline.js's colours, as a reader of the chart knows them: a bar's by the round trips one request makes (none,
    // one, a few to dozens, 148 or more), and the CPU chart's share of the module's JVM
    private static final Color NO_TRIP = new Color(0x2e8b57);

    private static final Color ONE_TRIP = new Color(0x1f77b4);

    private static final Color FEW_TRIPS = new Color(0xe69500);

    private static final Color MANY_TRIPS = new Color(0xc0392b);

    private static final List<Color> ROUND_TRIPS = List.of(NO_TRIP, ONE_TRIP, FEW_TRIPS, MANY_TRIPS);

    private static final Color MODULE_CPU = new Color(0x6b8fb5);

    private static Browser browser;

    private static Path run;

    /** The sample's headline rows, as summary.json holds them, with three more (see {@link #sample}). */
    private static Map<String, Object> sampleSummary;

    private static Shot blankHeadline;

    static Browser browserOrSkip() {
        var browser = Browser.find();
        String require = System.getenv(REQUIRE_BROWSER);
        if (browser.isEmpty() && ("1".equals(require) || "true".equalsIgnoreCase(require))) {
            throw new AssertionError(REQUIRE_BROWSER + "=" + require + " and no headless Chromium on this machine (apt-get install chromium, "
                    + "or CHROMIUM=<path>): the report must be opened in a browser here, not skipped");
        }
        Assumptions.assumeTrue(browser.isPresent(),
                "no headless Chromium on this machine (apt-get install chromium, or CHROMIUM=<path>): the report was not opened in a browser");
        return browser.orElseThrow();
    }

    /** Each test, rather than the class, is skipped (or failed) without a browser, so that the count and the reason show. */
    @BeforeEach
    void writeTheSampleReportOnce() throws IOException {
        browser = browserOrSkip();
        if (blankHeadline != null) {
            return;
        }
        run = Files.createDirectories(SCREENSHOTS.resolve("run"));
        ReportTest.sample().write(new RunDirectory(run));
        sampleSummary = sample(read(run.resolve("summary.json")));
        assertThat(barsOf(sampleSummary)).as("the sample's rows with a TPS figure").hasSize(4);
        blankHeadline = shoot("headline.html", "blank-headline", blank(sampleSummary), page -> page);
    }

    @Test
    void everyRowHasItsBarOnBothPages() {
        for (String page : new String[] { "report.html", "headline.html" }) {
            String name = page.replace(".html", "");
            Shot blank = page.equals("headline.html") ? blankHeadline : shoot(page, "blank-" + name, blank(sampleSummary), html -> html);
            assertDrawn(page, shoot(page, name, sampleSummary, html -> html), blank, sampleSummary);
        }
    }

    @Test
    void aChartWithoutBarsFails() {
        // the blank render itself: axes, row labels and legends, every figure NaN
        assertThatThrownBy(() -> assertDrawn("the blank headline", blankHeadline, blankHeadline, sampleSummary))
                .hasMessageContaining("the throughput chart's bars").hasMessageContaining("Expected size: 4 but was: 0");
    }

    @Test
    void aNaNFigureFails() {
        Shot nan = shoot("headline.html", "broken-nan", changed(sampleSummary, "in-memory", row -> row.put("tpsMedian", Double.NaN)), html -> html);
        assertThatThrownBy(() -> assertDrawn("a NaN figure", nan, blankHeadline, sampleSummary))
                .hasMessageContaining("the throughput chart's bars").hasMessageContaining("Expected size: 4 but was: 3");
    }

    @Test
    @SuppressWarnings("unchecked")
    void aNaNCpuFigureFails() {
        Shot nan = shoot("headline.html", "broken-nan-cpu", changed(sampleSummary, "pipelined-get",
                row -> ((Map<String, Object>) ((Map<String, Object>) row.get("cpu")).get("moduleMicros")).put("median", Double.NaN)), html -> html);
        assertThatThrownBy(() -> assertDrawn("a NaN CPU figure", nan, blankHeadline, sampleSummary))
                .hasMessageContaining("the CPU chart's bars").hasMessageContaining("Expected size: 4 but was: 3");
    }

    @Test
    void aZeroFigureFails() {
        // nothing on a log scale: a figure that was measured as 0 would have no bar
        Shot zero = shoot("headline.html", "broken-zero", changed(sampleSummary, "cacheable-loop", row -> row.put("tpsMedian", 0.0)), html -> html);
        assertThatThrownBy(() -> assertDrawn("a zero figure", zero, blankHeadline, sampleSummary))
                .hasMessageContaining("the throughput chart's bars").hasMessageContaining("Expected size: 4 but was: 3");
    }

    @Test
    void aRowWhoseBarIsNotDrawnFails() {
        // the page's data is whole, its drawing leaves the second row's bar transparent: its own flags see a figure on every chart
        String colours = "backgroundColor: rows.map(m => kind(m).color)";
        Shot missing = shoot("headline.html", "broken-bar", sampleSummary, html -> {
            assertThat(html).contains(colours);
            return html.replace(colours, "backgroundColor: rows.map((m, i) => i === 1 ? 'rgba(0, 0, 0, 0)' : kind(m).color)");
        });
        assertThatThrownBy(() -> assertDrawn("a row's bar left out", missing, blankHeadline, sampleSummary))
                .hasMessageContaining("the throughput chart's bars").hasMessageContaining("Expected size: 4 but was: 3");
    }

    @Test
    void aRowLeftOutOfThePageFails() {
        Map<String, Object> fewer = copy(sampleSummary);
        modules(fewer).removeIf(row -> "pipelined-get".equals(row.get("module")));
        Shot missing = shoot("headline.html", "broken-row", fewer, html -> html);
        assertThatThrownBy(() -> assertDrawn("a row left out", missing, blankHeadline, sampleSummary))
                .hasMessageContaining("the throughput chart's bars").hasMessageContaining("Expected size: 4 but was: 3");
    }

    @Test
    void aScriptErrorFails() {
        Shot error = shoot("headline.html", "broken-script", sampleSummary, html -> html.replace("colorbenchHeadline({", "colorbenchHeadlines({"));
        assertThatThrownBy(() -> assertDrawn("a script error", error, blankHeadline, sampleSummary))
                .hasMessageContaining("uncaught script errors").hasMessageContaining("colorbenchHeadlines is not defined");
    }

    /**
     * Judges a screenshot of the headline chart drawn from {@code summary} by its pixels alone: no uncaught script error,
     * one bar per row with a TPS figure on the throughput chart, each in the colour of its round trips, in the one
     * ranking's order, longer for more TPS, all from one axis; one bar of the module's CPU per row; and the bars are not on the blank render, the same
     * page with every figure NaN.
     */
    static void assertDrawn(String what, Shot shot, Shot blank, Map<String, Object> summary) {
        List<Map<String, Object>> expected = barsOf(summary);
        assertThat(shot.errors()).as(what + ": uncaught script errors in Chromium's console").isEmpty();
        List<DrawnBars.Bar> tps = DrawnBars.find(shot.image(), ROUND_TRIPS);
        assertThat(tps).as("%s (%s): the throughput chart's bars, one per row with a TPS figure: %s", what, shot.png(),
                expected.stream().map(row -> row.get("module")).toList()).hasSize(expected.size());
        assertThat(tps).as(what + ": the bars start at the chart's axis")
                .allSatisfy(bar -> assertThat(bar.left()).isCloseTo(tps.get(0).left(), within(2)));
        assertThat(tps.stream().map(bar -> DrawnBars.hex(bar.colour())).toList()).as(what + ": each bar's colour, in the ranking's order")
                .containsExactlyElementsOf(expected.stream().map(row -> DrawnBars.hex(colour(row))).toList());
        // in the ranking's order, not by throughput: a bar is no shorter than the bar of any row with clearly less TPS
        for (int i = 0; i < tps.size(); i++) {
            for (int j = 0; j < tps.size(); j++) {
                if (number(expected.get(i), "tpsMedian") > 1.05 * number(expected.get(j), "tpsMedian")) {
                    assertThat(tps.get(i).width()).as("%s: bar %d (%s) no shorter than bar %d (%s), of less TPS", what, i + 1,
                            expected.get(i).get("module"), j + 1, expected.get(j).get("module")).isGreaterThanOrEqualTo(tps.get(j).width() - 2);
                }
            }
        }
        List<DrawnBars.Bar> cpu = DrawnBars.find(shot.image(), List.of(MODULE_CPU));
        List<Object> withCpu = expected.stream().filter(row -> row.get("cpu") instanceof Map<?, ?> figures
                && figures.get("moduleMicros") instanceof Map<?, ?> spread && spread.get("median") != null).map(row -> row.get("module")).toList();
        assertThat(cpu).as("%s (%s): the CPU chart's bars of the module's JVM, one per row with that figure: %s", what, shot.png(), withCpu)
                .hasSize(withCpu.size());
        assertThat(cpu).as(what + ": the CPU bars start at the chart's axis")
                .allSatisfy(bar -> assertThat(bar.left()).isCloseTo(cpu.get(0).left(), within(2)));
        assertThat(List.of(shot.image().getWidth(), shot.image().getHeight())).as(what + ": the blank render's size")
                .isEqualTo(List.of(blank.image().getWidth(), blank.image().getHeight()));
        List<DrawnBars.Bar> bars = Stream.concat(tps.stream(), cpu.stream()).toList();
        assertThat(DrawnBars.shareDiffering(shot.image(), blank.image(), bars))
                .as("%s: share of the bars' pixels that differ on the blank render %s", what, blank.png()).isGreaterThan(0.9);
    }

    /** A screenshot, and the uncaught script errors Chromium's console named while it drew the page. */
    record Shot(Path png, BufferedImage image, List<String> errors) {
    }

    /**
     * The sample report's page (report.html or headline.html) drawing the headline chart from {@code data}, changed by
     * {@code change}, screenshot into target/browser/{@code name}.png.
     */
    private static Shot shoot(String page, String name, Map<String, Object> data, UnaryOperator<String> change) {
        try {
            String html = Files.readString(run.resolve(page));
            String call = "colorbenchHeadline({";
            int start = html.indexOf(call) + call.length() - 1;
            int end = html.indexOf(", document.getElementById(", start);
            assertThat(start).as(page + " draws the headline chart from its data").isPositive().isLessThan(end);
            html = change.apply(html.substring(0, start) + Headline.data(data) + html.substring(end));
            boolean headline = page.equals("headline.html");
            return shoot(browser, html, name, headline ? Headline.WIDTH : 1400, headline ? Headline.HEIGHT : 1000);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * The page screenshot into target/browser/{@code name}.png (the page itself into target/browser/pages/). Chart.js's
     * animations are turned off in the page and the window has a fixed size, so that the picture is the finished
     * drawing, the same on every machine.
     */
    static Shot shoot(Browser browser, String html, String name, int width, int height) {
        try {
            Path file = Files.createDirectories(SCREENSHOTS.resolve("pages")).resolve(name + ".html");
            Files.writeString(file, html.replace("</head>", "<script>Chart.defaults.animation = false;</script>\n</head>"));
            Path png = SCREENSHOTS.resolve(name + ".png");
            List<String> errors = browser.screenshot(file, png, width, height);
            return new Shot(png, ImageIO.read(png.toFile()), errors);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * The sample's two rows (template-mget measured, reactive-mget without samples, so without a bar), and three more
     * made from the measured one so that each colour has a bar and the bars differ in length.
     */
    private static Map<String, Object> sample(Map<String, Object> written) {
        Map<String, Object> sample = copy(written);
        List<Map<String, Object>> rows = modules(sample);
        Map<String, Object> measured = rows.stream().filter(row -> "template-mget".equals(row.get("module"))).findFirst().orElseThrow();
        rows.add(like(measured, "in-memory", "none", 0, 40_000));
        rows.add(like(measured, "pipelined-get", "148 GET in 4 pipelines", 4, 3_000));
        rows.add(like(measured, "cacheable-loop", "148 GET", 148, 300));
        return sample;
    }

    private static Map<String, Object> like(Map<String, Object> row, String module, String storeWork, double roundTrips, double tps) {
        Map<String, Object> like = copy(row);
        like.put("module", module);
        like.put("storeWork", storeWork);
        like.put("storeRoundTripsPerRequest", roundTrips);
        like.put("tpsMedian", tps);
        like.put("tpsMin", tps * 0.9);
        like.put("tpsMax", tps * 1.05);
        return like;
    }

    /** The same rows, each figure the charts draw NaN: what the page draws without figures, axes and labels only. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> blank(Map<String, Object> summary) {
        Map<String, Object> blank = copy(summary);
        for (Map<String, Object> row : modules(blank)) {
            if (row.get("tpsMedian") != null) {
                Stream.of("tpsMedian", "tpsMin", "tpsMax").forEach(figure -> row.put(figure, Double.NaN));
            }
            if (row.get("cpu") instanceof Map<?, ?> cpu) {
                Stream.of("moduleMicros", "storeMicros", "totalMicros").map(cpu::get).filter(Map.class::isInstance)
                        .forEach(spread -> ((Map<String, Object>) spread).put("median", Double.NaN));
            }
        }
        return blank;
    }

    private static Map<String, Object> changed(Map<String, Object> summary, String module, Consumer<Map<String, Object>> change) {
        Map<String, Object> changed = copy(summary);
        change.accept(modules(changed).stream().filter(row -> module.equals(row.get("module"))).findFirst().orElseThrow());
        return changed;
    }

    /**
     * The rows a reader must find a bar of: those with a TPS figure, in the one ranking's order (cheapest per request first,
     * the A/A twin right after its row, a row without a cost last), as headline.js orders them.
     */
    private static List<Map<String, Object>> barsOf(Map<String, Object> summary) {
        List<String> order = Ranking.of(Report.Summary.of(summary)).stream().map(Ranking.Place::id).toList();
        java.util.function.ToDoubleFunction<Map<String, Object>> place = row -> order.contains(row.get("module")) ? order.indexOf(row.get("module"))
                : order.contains(row.get("twinOf")) ? order.indexOf(row.get("twinOf")) + 0.5 : order.size();
        List<Map<String, Object>> rows = modules(summary).stream().filter(row -> row.get("tpsMedian") != null).toList();
        return rows.stream().sorted(Comparator.comparingDouble(place).thenComparingInt(rows::indexOf)).toList();
    }

    /** headline.js's colour of the row's bar, by the round trips one request makes. */
    private static Color colour(Map<String, Object> row) {
        long trips = Math.round(row.get("storeRoundTripsPerRequest") == null ? 0 : number(row, "storeRoundTripsPerRequest"));
        return trips == 0 ? NO_TRIP : trips == 1 ? ONE_TRIP : trips < 100 ? FEW_TRIPS : MANY_TRIPS;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> modules(Map<String, Object> summary) {
        return (List<Map<String, Object>>) summary.get("modules");
    }

    private static double number(Map<String, Object> row, String name) {
        return ((Number) row.get(name)).doubleValue();
    }

    /** A deep copy, whose rows can be changed (through JSON, as summary.json is read). */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> copy(Map<String, Object> value) {
        Map<String, Object> copy = Json.MAPPER.readValue(Json.MAPPER.writeValueAsString(value), Map.class);
        if (copy.get("modules") instanceof List<?> rows) {
            copy.put("modules", new ArrayList<>(rows));
        }
        return copy;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> read(Path file) {
        return Json.MAPPER.readValue(file.toFile(), Map.class);
    }
}
