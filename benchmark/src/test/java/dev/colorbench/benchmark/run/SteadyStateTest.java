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

    @Test
    void theJitIsQuietWhenItCompiledForAtMostTwoPercentOfTheWindows() {
        assertThat(SteadyState.jitQuiet(120, 6_000)).isTrue();
        assertThat(SteadyState.jitQuiet(0, 6_000)).isTrue();
        // template-mget 20 s into its load: both compiler threads busy, throughput still climbing in steps
        assertThat(SteadyState.jitQuiet(7_000, 6_000)).isFalse();
        assertThat(SteadyState.jitQuiet(121, 6_000)).isFalse();
    }
}
