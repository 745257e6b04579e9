package dev.colorbench.benchmark.scenario;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

import dev.colorbench.benchmark.results.Spread;

import static org.assertj.core.api.Assertions.assertThat;

/** A copy is level with its module where their repetitions' CPU ranges overlap, and otherwise by how much it differs. */
class CopiesTest {

    @Test
    void overlappingRangesAreLevelAndSeparateOnesAreARatio() {
        Spread module = spread(100.0, 110.0);

        assertThat(Copies.verdict(module, spread(108.0, 120.0), 2)).isEqualTo("level");
        assertThat(Copies.verdict(module, spread(80.0, 90.0), 2)).isEqualTo("x 0.81");
        assertThat(Copies.verdict(module, null, 2)).isEqualTo("missing");
        assertThat(Copies.verdict(spread(100.0), spread(100.0), 1)).as("one repetition has no range to call level")
                .isEqualTo("x 1.00 (one repetition: no range)");
    }

    private static Spread spread(Double... values) {
        return Spread.of(Arrays.asList(values));
    }
}
