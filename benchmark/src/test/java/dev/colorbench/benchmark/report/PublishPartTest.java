package dev.colorbench.benchmark.report;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * A further part of a scenario's run, some of its modules, goes beside the first into {@code docs/results/<scenario>-<n>/}, and only
 * for a scenario whose rows compare within a module alone: there a part adds rows and changes none of the others.
 */
class PublishPartTest {

    private static final Path RESULTS = Path.of("..").resolve(Publish.RESULTS);

    @Test
    void aCopiesRunIsPublishedAsAFurtherPartBesideTheFirst(@TempDir Path dir) throws Exception {
        Path results = Files.createDirectories(dir.resolve("results"));
        Publish.publish(runOf(dir, "copies"), results, null);
        Path run = runOf(dir, "copies-2");

        Publish.publish(run, results, null, "copies-2");

        assertThat(results.resolve("copies-2/summary.json")).hasSameTextualContentAs(run.resolve("summary.json"));
        assertThat(results.resolve("copies-2/report.md")).hasSameTextualContentAs(run.resolve("report.md"));
    }

    @Test
    void aPartWithoutTheFirstOrWithItsRowsOrOfAnotherCommitIsRefused(@TempDir Path dir) throws Exception {
        Path results = Files.createDirectories(dir.resolve("results"));
        Path second = runOf(dir, "copies-2");
        assertThatIllegalStateException().isThrownBy(() -> Publish.publish(second, results, null, "copies-2")).withMessageContaining("first part");
        Publish.publish(runOf(dir, "copies"), results, null);
        // the first part's modules again, as a further part
        Path again = runOf(dir, "copies");
        assertThatIllegalStateException().isThrownBy(() -> Publish.publish(again, results, null, "copies-2")).withMessageContaining("near-cache+copy");
        // another commit's
        Path other = runOf(dir, "copies-2");
        Path summary = other.resolve("summary.json");
        String commit = Report.Summary.read(summary).environment().gitCommit();
        Files.writeString(summary, Files.readString(summary).replace(commit, "0123456789ab"));
        assertThatIllegalStateException().isThrownBy(() -> Publish.publish(other, results, null, "copies-2")).withMessageContaining("0123456789ab");
        assertThat(results.resolve("copies-2")).doesNotExist();
    }

    @Test
    void aPartOfAnotherScenarioOrNamedForAnotherOrOfTheHeadlineIsRefused(@TempDir Path dir) throws Exception {
        Path results = Files.createDirectories(dir.resolve("results"));
        // the values' rows are ranked against each other at each size: a part with other modules would change the ranks
        Path values = runOf(dir, "values");
        assertThatIllegalStateException().isThrownBy(() -> Publish.publish(values, results, null, "values-2")).withMessageContaining("[copies]");
        Path copies = runOf(dir, "copies");
        assertThatIllegalStateException().isThrownBy(() -> Publish.publish(copies, results, null, "values-2")).withMessageContaining("scenario copies");
        Path headline = Files.createDirectories(dir.resolve("headline"));
        Files.copy(RESULTS.resolve("summary.json"), headline.resolve("summary.json"));
        Files.copy(RESULTS.resolve("report.md"), headline.resolve("report.md"));
        assertThatIllegalStateException().isThrownBy(() -> Publish.publish(headline, results, null, "copies-2")).withMessageContaining("the headline");
        try (var written = Files.list(results)) {
            assertThat(written).as("nothing published").isEmpty();
        }
    }

    /** A run folder of its own holding the published run of {@code scenario} (or of its further part, {@code copies-2}). */
    private static Path runOf(Path dir, String scenario) throws Exception {
        Path run = Files.createTempDirectory(dir, "run-" + scenario);
        for (String file : new String[] { "summary.json", "report.md", "timeline.json" }) {
            if (Files.exists(RESULTS.resolve(scenario).resolve(file))) {
                Files.copy(RESULTS.resolve(scenario).resolve(file), run.resolve(file));
            }
        }
        return run;
    }
}
