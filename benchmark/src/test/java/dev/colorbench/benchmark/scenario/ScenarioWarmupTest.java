package dev.colorbench.benchmark.scenario;

import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.report.Section;
import dev.colorbench.benchmark.run.SteadyState.Warmup;

import static org.assertj.core.api.Assertions.assertThat;

/** A scenario's report says how many of its rows' warm-ups settled, and names the rows that did not. */
class ScenarioWarmupTest {

    private final BenchmarkSettings settings = BenchmarkSettings.from(new Properties(), Map.of()).forScenario(10);

    private final Section section = new Section("copies", "title", "intro", List.of("module"), List.of(), List.of(), List.of("first note"),
            Map.of(), List.of());

    @Test
    void everyRowSettledIsSaidOnlyWhenEveryOneDid() {
        Section noted = Scenarios.withWarmups(section, List.of(warmup("in-memory", true), warmup("in-memory+copy", true)), settings);

        assertThat(noted.notes()).hasSize(2).first().isEqualTo("first note");
        assertThat(noted.notes().get(1)).startsWith("Warm-up: every row settled before it was measured (2 warm-ups;")
                .contains("at most 300 s");
    }

    @Test
    void aRowThatDidNotSettleIsNamedOnceWhateverHowOftenItWasStarted() {
        Section noted = Scenarios.withWarmups(section, List.of(warmup("cacheable-loop", false), warmup("in-memory", true),
                warmup("cacheable-loop", false)), settings);

        assertThat(noted.notes().get(1)).startsWith("Warm-up: 1 of 3 warm-ups settled").endsWith("Not settled: cacheable-loop; their figures may still climb.");
    }

    @Test
    void aScenarioThatWarmedNothingGetsNoNote() {
        assertThat(Scenarios.withWarmups(section, List.of(), settings)).isSameAs(section);
    }

    private static Warmup warmup(String target, boolean steady) {
        return new Warmup(target, 30, steady, List.of(100.0, 101.0, 100.0), 0, 1000, 0);
    }
}
