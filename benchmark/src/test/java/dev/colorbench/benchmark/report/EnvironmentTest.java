package dev.colorbench.benchmark.report;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The workload's distance to Redis is written as the run measured it, and flagged where the path missed what was asked. */
class EnvironmentTest {

    @Test
    void aMeasuredPathCloseToTheAskedOneIsWrittenWithItsFigure() {
        assertThat(Environment.distance(1.0, 0.977)).isEqualTo(" (asked; measured +0.977 ms)");
    }

    @Test
    void aPathMoreThanAFifthOffIsFlagged() {
        assertThat(Environment.distance(1.0, 1.31)).isEqualTo(" (asked; measured +1.310 ms, OFF by more than 20 %)");
    }

    @Test
    void aDirectPathSaysNothing() {
        assertThat(Environment.distance(null, null)).isEmpty();
    }
}
