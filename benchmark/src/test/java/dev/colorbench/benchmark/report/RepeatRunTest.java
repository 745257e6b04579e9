package dev.colorbench.benchmark.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.colorbench.benchmark.Json;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The repeat of the reference run is a full run of the same commit, and its comparison page is what the two summaries
 * give, not a page edited by hand (docs/results.md#the-same-code-twice).
 */
class RepeatRunTest {

    private static final Path RESULTS = Path.of("..").resolve(Publish.RESULTS);

    /**
     * A published repeat is of the reference run's commit, in orders of its own, and its comparison page is the two summaries'.
     * None is published while the reference run has no repeat yet: a repeat of another commit would compare two codes.
     */
    @Test
    @SuppressWarnings("unchecked")
    void aPublishedRepeatIsOfTheReferenceRunsCommitInOrdersOfItsOwnAndItsComparisonIsTheSummaries() throws Exception {
        Path repeat = RESULTS.resolve(Publish.REPEAT);
        Map<String, Object> reference = Json.MAPPER.readValue(RESULTS.resolve("summary.json").toFile(), Map.class);
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isRegularFile(repeat.resolve("summary.json")),
                "no repeat of the reference run is published (docs/results.md#the-same-code-twice)");
        Map<String, Object> again = Json.MAPPER.readValue(repeat.resolve("summary.json").toFile(), Map.class);
        Map<String, Object> first = (Map<String, Object>) reference.get("environment");
        Map<String, Object> second = (Map<String, Object>) again.get("environment");
        assertThat(second.get("gitCommit")).isEqualTo(first.get("gitCommit"));
        assertThat(second.get("quick")).isEqualTo(false);
        assertThat(second.get("seed")).as("the repeat draws orders of its own").isNotNull().isNotEqualTo(first.get("seed"));
        assertThat(Files.readString(repeat.resolve("comparison.md"))).isEqualTo(Reproducibility.markdown(reference, again));
    }

    @Test
    void theRepeatsPageSaysWhetherARepeatIsPublished() throws Exception {
        String page = Files.readString(Path.of("..", "docs", "results.md"));
        boolean published = Files.isRegularFile(RESULTS.resolve(Publish.REPEAT).resolve("summary.json"));
        assertThat(page.contains("results/repeat/comparison.md")).as("docs/results.md links the repeat only when one is published").isEqualTo(published);
    }

    @Test
    void eachRatioIsSetBesideItsRepeatWithHowFarItMoved() {
        Map<String, Object> reference = run(Map.of("estimate", 20.0, "low", 19.0, "high", 21.0), Map.of("estimate", 1.5, "low", 1.45, "high", 1.55));
        Map<String, Object> repeat = run(Map.of("estimate", 22.0, "low", 21.5, "high", 22.5), Map.of("estimate", 1.5, "low", 1.48, "high", 1.52));

        List<Reproducibility.Pair> pairs = Reproducibility.pairs(reference, repeat);
        assertThat(pairs).extracting(pair -> pair.ratio().name()).containsExactly("x loop", "x floor");
        assertThat(pairs.get(0).movedPercent()).isCloseTo(10, within(1e-9));
        assertThat(pairs.get(0).intervalsOverlap()).isFalse();
        assertThat(pairs.get(1).movedPercent()).isCloseTo(0, within(1e-9));
        assertThat(Reproducibility.markdown(reference, repeat)).contains("| mget-raw | x loop | 20.00 (19.00-21.00) | 22.00 (21.50-22.50) | 10.0 % |",
                "The largest move: mget-raw's x loop, 10.0 %. Moved more than 5 %: 1 of 2.");
    }

    private static Map<String, Object> run(Map<String, Object> loop, Map<String, Object> floor) {
        return Map.of("environment", Map.of("date", "2026-11-27", "gitCommit", "abc"),
                "modules", List.of(Map.of("module", "mget-raw", "ratioToReferenceInterval", loop, "floorRatioInterval", floor)));
    }
}
