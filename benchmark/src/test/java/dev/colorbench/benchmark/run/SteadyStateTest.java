package dev.colorbench.benchmark.run;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SteadyStateTest {

    @Test
    void windowsAgreeWhenTheLowestIsWithinTheToleranceOfTheHighest() {
        assertThat(SteadyState.climbing(List.of(6_600.0, 6_500.0, 6_400.0), 5)).as("a wobble down is not a climb").isFalse();
        assertThat(SteadyState.climbing(List.of(6_400.0, 7_300.0, 6_500.0), 5)).as("a wobble both ways is not a climb").isFalse();
        assertThat(SteadyState.climbing(List.of(3_197.0, 4_612.0, 6_848.0), 5)).isTrue();
        assertThat(SteadyState.climbing(List.of(6_000.0, 6_200.0, 6_400.0), 5)).as("6.5 % up over the windows").isTrue();
        assertThat(SteadyState.climbing(List.of(0.0, 0.0), 5)).as("a row that answers nothing never settles").isTrue();
        // every window weighs: three level windows and a last one 5.5 % up fit a line that rises 4.9 %, while the last against
        // the first alone would read as a climb
        assertThat(SteadyState.climbing(List.of(6_000.0, 6_000.0, 6_000.0, 6_330.0), 5)).as("one high window after three level ones").isFalse();
        assertThat(SteadyState.climbing(List.of(6_000.0, 6_200.0, 6_400.0, 6_600.0), 5)).as("a steady rise over four windows").isTrue();
    }

    @Test
    void aRowThatNeverSettlesStopsAtTheMaximumOnceItsJitIsQuietAndAtTheLongerOneWhileItStillCompiles() {
        // 30 windows of 2 s: warmup 60; 60 windows: warmupCompiling 120
        assertThat(SteadyState.done(29, true, 30, 60, true, 60)).isFalse();
        assertThat(SteadyState.done(30, true, 30, 60, true, 60)).as("throughput never agreed, the JIT is quiet").isTrue();
        assertThat(SteadyState.done(30, false, 30, 60, true, 60)).as("still compiling at 60 s").isFalse();
        assertThat(SteadyState.done(45, false, 30, 60, true, 60)).isFalse();
        assertThat(SteadyState.done(60, false, 30, 60, true, 60)).as("still compiling at 120 s: measured as it is, marked not steady").isTrue();
    }

    @Test
    void theJitIsQuietWhenItCompiledForAtMostTwoPercentOfTheWindows() {
        assertThat(SteadyState.jitQuiet(120, 6_000)).isTrue();
        assertThat(SteadyState.jitQuiet(0, 6_000)).isTrue();
        // template-mget 20 s into its load: both compiler threads busy, throughput still climbing in steps
        assertThat(SteadyState.jitQuiet(7_000, 6_000)).isFalse();
        assertThat(SteadyState.jitQuiet(121, 6_000)).isFalse();
    }

    @Test
    void rowsAreWarmedInGroupsOfOnePerCoreInTheirOrder() {
        assertThat(SteadyState.groups(List.of("a", "b", "c", "d", "e"), 2)).containsExactly(List.of("a", "b"), List.of("c", "d"), List.of("e"));
        assertThat(SteadyState.groups(List.of("a", "b"), 1)).containsExactly(List.of("a"), List.of("b"));
        assertThat(SteadyState.groups(List.of("a"), 0)).as("never a group of none").containsExactly(List.of("a"));
    }

    @Test
    void rowsWarmedBeforeArePairedWithRowsOfLikeTimesLongestFirstAfterTheRowsNotWarmedBefore() {
        java.util.Map<String, Double> earlier = java.util.Map.of("loop", 240.0, "fast", 80.0, "mget", 120.0, "hash", 200.0);
        List<String> rows = List.of("fast", "new", "loop", "mget", "hash", "other");

        List<String> ordered = SteadyState.byEarlierTimes(rows, earlier::get);

        assertThat(ordered).containsExactly("new", "other", "loop", "hash", "mget", "fast");
        // in pairs: the two slow rows together, not each beside a fast row that leaves it alone for half its warm-up
        assertThat(SteadyState.groups(ordered, 2)).containsExactly(List.of("new", "other"), List.of("loop", "hash"), List.of("mget", "fast"));
        assertThat(SteadyState.byEarlierTimes(rows, row -> null)).as("a first warm-up keeps the given order").isEqualTo(rows);
    }

    @Test
    void aRowSettledOnlyIfItSettledInEveryFork() {
        SteadyState.Warmup firstA = new SteadyState.Warmup("a", 40, true, List.of(1.0), 10, 100, 0);
        SteadyState.Warmup firstB = new SteadyState.Warmup("b", 50, false, List.of(2.0), 20, 200, 1);
        SteadyState.Warmup secondB = new SteadyState.Warmup("b", 30, true, List.of(3.0), 5, 300, 0);
        SteadyState.Warmup secondA = new SteadyState.Warmup("a", 45, true, List.of(4.0), 8, 400, 2);

        assertThat(SteadyState.Warmup.acrossForks(List.of(List.of(firstA, firstB), List.of(secondB, secondA)))).containsExactly(
                new SteadyState.Warmup("b", 80, false, List.of(3.0), 5, 500, 1),
                new SteadyState.Warmup("a", 85, true, List.of(4.0), 8, 500, 2));
        assertThat(SteadyState.Warmup.acrossForks(List.of())).isEmpty();
    }

    @Test
    void aRowSettlesOnlyOnWindowsAfterItsPairStopped() {
        // three windows needed; the pair stopped in window 5, so windows 6 to 8 must agree before the row counts as settled
        assertThat(SteadyState.settled(7, 5, 3, false, true)).as("two windows since the pair stopped").isFalse();
        assertThat(SteadyState.settled(8, 5, 3, false, true)).isTrue();
        assertThat(SteadyState.settled(8, 5, 3, true, true)).as("still climbing on the core its pair left").isFalse();
        assertThat(SteadyState.settled(8, 5, 3, false, false)).as("its JIT still compiling").isFalse();
        assertThat(SteadyState.settled(3, 0, 3, false, true)).as("no change in the group: the first three windows count").isTrue();
    }

    @Test
    void aRowStillClimbingAtItsTimeGetsMoreUpToTheStatedLimit() {
        // warmup 12 s and warmupCompiling 40 s in windows of 2 s: 6 and 20 windows
        assertThat(SteadyState.done(6, true, 6, 20, true, 20)).as("quiet and no longer climbing at its time").isTrue();
        assertThat(SteadyState.done(6, false, 6, 20, true, 20)).as("still climbing at its time: more").isFalse();
        assertThat(SteadyState.done(19, false, 6, 20, true, 20)).isFalse();
        assertThat(SteadyState.done(20, false, 6, 20, true, 20)).as("at the limit, measured as it is and marked not steady").isTrue();
        // a pair that stopped late moves a row's own time on: it needs its windows after that
        assertThat(SteadyState.done(7, true, Math.max(6, 5 + 3), 20, true, 20)).isFalse();
        assertThat(SteadyState.done(8, true, Math.max(6, 5 + 3), 20, true, 20)).isTrue();
    }

    @Test
    void aRowStillCompilingPastItsTimeGoesOnUntilItHasServedTheRequestsTheJitCountsUpToTheLimit() {
        // warmupCompiling 100 s and warmupLimit 300 s in windows of 2 s: 50 and 150 windows
        assertThat(SteadyState.done(50, false, 6, 50, false, 150)).as("still compiling at 100 s, few requests served: more").isFalse();
        assertThat(SteadyState.done(50, false, 6, 50, true, 150)).as("still compiling at 100 s with the requests served: as before").isTrue();
        assertThat(SteadyState.done(90, false, 6, 50, true, 150)).as("the requests reached at 180 s").isTrue();
        assertThat(SteadyState.done(149, false, 6, 50, false, 150)).isFalse();
        assertThat(SteadyState.done(150, false, 6, 50, false, 150)).as("at the limit, measured as it is and marked not steady").isTrue();
        assertThat(SteadyState.done(6, true, 6, 50, false, 150)).as("a quiet row stops at its time, whatever it served").isTrue();
        assertThat(SteadyState.done(30, false, 6, 50, true, 150)).as("never before warmupCompiling while it compiles").isFalse();
    }
}
