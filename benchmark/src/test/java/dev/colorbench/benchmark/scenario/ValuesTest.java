package dev.colorbench.benchmark.scenario;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.colorbench.benchmark.results.Spread;
import dev.colorbench.testkit.statistics.Statistics;

import static org.assertj.core.api.Assertions.assertThat;

/** A value size's rows rank by CPU per request, level where the headline's rule cannot separate them. */
class ValuesTest {

    @Test
    void aSizeRanksItsRowsByCpuAndCallsLevelWhatThePairedRatioCannotSeparate() {
        // four rounds in two forks: the loop far dearer; the two MGET rows within a few per cent of each other, back and forth
        Map<String, Map<Integer, Double>> cpu = Map.of("cacheable-loop", Map.of(1, 5000.0, 2, 5100.0, 3, 4900.0, 4, 5050.0),
                "template-mget", Map.of(1, 350.0, 2, 340.0, 3, 355.0, 4, 345.0),
                "reactive-mget", Map.of(1, 345.0, 2, 352.0, 3, 347.0, 4, 356.0));
        Values.Step step = new Values.Step(1_024, null, Map.of(), Map.of(), Statistics.rounds(cpu, RowFigures.forkOf(2)));

        assertThat(Values.order(step)).isIn("template-mget, level with it reactive-mget, then cacheable-loop",
                "reactive-mget, level with it template-mget, then cacheable-loop");
    }

    @Test
    void aCellGivesTheCpuTheSizeRanksByWithItsInterval() {
        Map<String, Map<Integer, Double>> cpu = Map.of("template-mget", Map.of(1, 350.0, 2, 340.0, 3, 355.0, 4, 345.0),
                "reactive-mget", Map.of(1, 345.0, 2, 352.0, 3, 347.0, 4, 356.0));
        Values.Step step = new Values.Step(1_024, null, Map.of(), Map.of(), Statistics.rounds(cpu, RowFigures.forkOf(2)));
        RowFigures figures = new RowFigures("template-mget", null, null, null, Spread.of(java.util.List.of(300.0, 310.0)),
                Spread.of(java.util.List.of(40.0, 42.0)), null, 0, 0, Map.of(), null, null, null);

        // the module's and the store's medians, then the total the ranking compares, with its interval: never a median alone
        assertThat(Values.cpu(figures, step, "template-mget")).isEqualTo("305 + 41 = " + RowFigures.interval(step.cpu().figure("template-mget")))
                .matches("305 \\+ 41 = 34\\d \\(\\d{3}-\\d{3}\\)");
    }
}
