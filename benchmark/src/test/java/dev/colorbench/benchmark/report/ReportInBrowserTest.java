package dev.colorbench.benchmark.report;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.colorbench.benchmark.RunDirectory;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * report.html and headline.html opened in a real browser (headless Chromium): no script error, and every chart drew
 * figures. The screenshots stay in target/browser/ to look at. Without a browser on the machine the test says it was
 * skipped and why; .ci/run installs Debian's chromium so that CI always runs it.
 */
class ReportInBrowserTest {

    private static final Path SCREENSHOTS = Path.of("target/browser");

    static Browser browserOrSkip() {
        var browser = Browser.find();
        Assumptions.assumeTrue(browser.isPresent(),
                "no headless Chromium on this machine (apt-get install chromium, or CHROMIUM=<path>): the report was not opened in a browser");
        return browser.orElseThrow();
    }

    @Test
    void theReportOpensWithEveryChartDrawnAndNoScriptError() throws Exception {
        Browser browser = browserOrSkip();
        Path folder = Files.createDirectories(SCREENSHOTS.resolve("run"));
        ReportTest.sample().write(new RunDirectory(folder));

        for (String page : new String[] { "report.html", "headline.html" }) {
            Browser.Drawing drawing = browser.open(folder.resolve(page));
            assertThat(drawing.errors()).as(page + ": script errors").isEmpty();
            assertThat(drawing.rendered()).as(page + ": its last script ran").isTrue();
            assertThat(drawing.blank()).as(page + ": canvases that drew nothing").isEmpty();
            assertThat(drawing.empty()).as(page + ": charts without a figure").isEmpty();
            assertThat(drawing.canvases()).as(page + ": canvases").isGreaterThanOrEqualTo(2);
            browser.screenshot(folder.resolve(page), SCREENSHOTS.resolve(page.replace(".html", ".png")), 1400, 1000);
            assertThat(Files.size(SCREENSHOTS.resolve(page.replace(".html", ".png")))).isGreaterThan(10_000);
        }
    }
}
