package dev.colorbench.benchmark;

import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The estimate a run prints as it goes: every fork's stages, so that "left" is what is left (docs/measuring.md#how-long-a-run-takes). */
class ProgressTest {

    @AfterEach
    void end() {
        Progress.end();
    }

    /**
     * Each fork starts, warms and measures every row again: the estimate has each fork's stages, a stage's end takes the
     * first of them still left, and the warm-up's groups so far correct this fork's and the later forks' warm-up.
     */
    @Test
    void everyForkHasItsOwnStagesAndAStagesEndTakesTheFirstStillLeft() {
        BenchmarkSettings full = BenchmarkSettings.from(new Properties(), Map.of());
        assertThat(full.forks()).isEqualTo(2);
        Progress.begin(full, 4, 2, 400);
        assertThat(Progress.left().keySet()).containsExactly("machine steadiness",
                "fork 1: starting the modules", "fork 1: warm-up", "fork 1: closed model", "fork 1: open model",
                "fork 2: starting the modules", "fork 2: warm-up", "fork 2: closed model", "fork 2: open model", "profiles", "report");
        assertThat(Progress.left().get("fork 2: closed model")).as("half the planned rounds, and JMeter's start").isEqualTo(215.0);

        Progress.stageEnded("machine steadiness", 10);
        Progress.stageEnded("starting the modules", 30);
        Progress.warmGroupEnded(100);
        assertThat(Progress.left()).containsEntry("fork 1: warm-up", 100.0).containsEntry("fork 2: warm-up", 200.0);
        Progress.warmGroupEnded(300);
        Progress.stageEnded("warming up", 400);
        Progress.stageEnded("JMeter", 200);
        Progress.stageEnded("JMeter", 60);
        assertThat(Progress.left().keySet()).first().isEqualTo("fork 2: starting the modules");
        assertThat(Progress.left()).containsEntry("fork 2: warm-up", 400.0);

        Progress.stageEnded("starting the modules", 30);
        Progress.warmGroupEnded(50);
        assertThat(Progress.left()).as("one group left of this fork, at the mean of the three so far").containsEntry("fork 2: warm-up", 150.0);
        Progress.stageEnded("warming up", 200);
        Progress.stageEnded("JMeter", 200);
        assertThat(Progress.left().keySet()).containsExactly("fork 2: open model", "profiles", "report");
    }

    /** A run in one fork shows its stages without one. */
    @Test
    void oneForkNamesNone() {
        Properties oneFork = new Properties();
        oneFork.setProperty("benchmark.forks", "1");
        Progress.begin(BenchmarkSettings.from(oneFork, Map.of()), 4, 2, 400);
        assertThat(Progress.left().keySet()).contains("starting the modules", "warm-up", "closed model", "open model")
                .noneMatch(name -> name.startsWith("fork"));
        assertThat(Progress.left().get("closed model")).isEqualTo(415.0);
    }
}
