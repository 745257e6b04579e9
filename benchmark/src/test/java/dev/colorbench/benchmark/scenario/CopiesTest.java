package dev.colorbench.benchmark.scenario;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.colorbench.testkit.statistics.Statistics;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A copy is level with its module where the interval of its CPU per request over the module's, round by round, holds 1, as
 * the headline ranks rows; otherwise the ratio and its interval say by how much it differs.
 */
class CopiesTest {

    @Test
    void aCopyIsLevelWhereItsPairedRatioHoldsOneAndElseARatio() {
        // four rounds in two forks: the level copy wobbles about its module, the cheap one costs a fifth less in every round
        Map<String, Map<Integer, Double>> cpu = Map.of("m", Map.of(1, 100.0, 2, 104.0, 3, 98.0, 4, 101.0),
                "m+copy", Map.of(1, 103.0, 2, 99.0, 3, 100.0, 4, 104.0),
                "n", Map.of(1, 200.0, 2, 206.0, 3, 196.0, 4, 203.0),
                "n+copy", Map.of(1, 160.0, 2, 166.0, 3, 157.0, 4, 161.0));
        Statistics.Rounds rounds = Statistics.rounds(cpu, RowFigures.forkOf(2));

        assertThat(RowFigures.against(rounds, "m+copy", "m")).startsWith("level, x 1.0");
        assertThat(RowFigures.against(rounds, "n+copy", "n")).startsWith("x 0.80 (");
        assertThat(RowFigures.against(rounds, "o+copy", "o")).isEqualTo("missing");
        assertThat(RowFigures.against(Statistics.rounds(cpu, round -> 1), "n+copy", "n")).as("one fork cannot separate them").startsWith("level, x 0.80");
    }
}
