package dev.colorbench.benchmark.results;

import dev.colorbench.testkit.statistics.Interval;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** An interval's arithmetic; how it is drawn, and how often it holds the truth, is {@code StatisticsCoverageTest}'s. */
class IntervalTest {

    @Test
    void twoIntervalsThatShareAValueOverlapAndAnIntervalScales() {
        assertThat(new Interval(10, 9, 11, 8).overlaps(new Interval(12, 10.5, 13, 8))).isTrue();
        assertThat(new Interval(10, 9, 11, 8).overlaps(new Interval(12, 11.5, 13, 8))).isFalse();
        assertThat(new Interval(0.5, 0.4, 0.6, 8).times(100)).isEqualTo(new Interval(50, 40, 60, 8));
        assertThat(new Interval(100, 95, 110, 8).contains(95)).isTrue();
        assertThat(new Interval(100, 95, 110, 8).halfWidthPercent()).isEqualTo(7.5);
    }
}
