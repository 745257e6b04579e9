package dev.colorbench.benchmark.run;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SteadyStateTest {

    @Test
    void windowsAgreeWhenTheLowestIsWithinTheToleranceOfTheHighest() {
        assertThat(SteadyState.agree(List.of(6_600.0, 6_500.0, 6_400.0), 5)).isTrue();
        assertThat(SteadyState.agree(List.of(3_197.0, 4_612.0, 6_848.0), 5)).isFalse();
        assertThat(SteadyState.agree(List.of(0.0, 0.0), 5)).as("a row that answers nothing never settles").isFalse();
    }
}
