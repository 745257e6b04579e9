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

    @Test
    @SuppressWarnings("unchecked")
    void theRepeatIsOfTheReferenceRunsCommitAndItsComparisonIsTheSummaries() throws Exception {
        Path repeat = RESULTS.resolve(Publish.REPEAT);
        assertThat(repeat.resolve("summary.json")).as("the repeat of the reference run is published").isRegularFile();
        Map<String, Object> reference = Json.MAPPER.readValue(RESULTS.resolve("summary.json").toFile(), Map.class);
        Map<String, Object> again = Json.MAPPER.readValue(repeat.resolve("summary.json").toFile(), Map.class);
        assertThat(((Map<String, Object>) again.get("environment")).get("gitCommit"))
                .isEqualTo(((Map<String, Object>) reference.get("environment")).get("gitCommit"));
        assertThat(((Map<String, Object>) again.get("environment")).get("quick")).isEqualTo(false);
        assertThat(Files.readString(repeat.resolve("comparison.md"))).isEqualTo(Reproducibility.markdown(reference, again));
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
