package dev.colorbench.benchmark.results;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class IntervalTest {

    @Test
    void theIntervalHoldsTheMedianAndWidensWithTheNoise() {
        Interval quiet = Interval.of(List.of(100.0, 101.0, 99.0, 100.5, 99.5, 100.0, 100.2, 99.8));
        Interval noisy = Interval.of(List.of(100.0, 120.0, 80.0, 110.0, 90.0, 100.0, 130.0, 70.0));
        assertThat(quiet.estimate()).isCloseTo(100.0, within(1e-9));
        assertThat(quiet.contains(quiet.estimate())).isTrue();
        assertThat(quiet.halfWidthPercent()).isLessThan(1);
        assertThat(noisy.halfWidthPercent()).isGreaterThan(5 * quiet.halfWidthPercent());
        assertThat(quiet.rounds()).isEqualTo(8);
    }

    @Test
    void theSameRoundsAlwaysGiveTheSameInterval() {
        List<Double> rounds = Arrays.asList(3.0, 5.0, 4.0, 6.0, 5.5, 4.5, null, Double.NaN);
        assertThat(Interval.of(rounds)).isEqualTo(Interval.of(rounds));
        assertThat(Interval.of(rounds).rounds()).as("missing rounds are left out, not counted as 0").isEqualTo(6);
        assertThat(Interval.of(Arrays.asList((Double) null))).isNull();
        assertThat(Interval.of(List.of(7.0))).isEqualTo(new Interval(7, 7, 7, 1));
    }

    @Test
    void aboutNineteenOfTwentyIntervalsHoldTheTrueMedian() {
        // eight rounds drawn from a normal distribution of median 100: a 95 % interval holds 100 in most of many runs
        Random random = new Random(7);
        int held = 0;
        int runs = 400;
        for (int run = 0; run < runs; run++) {
            List<Double> rounds = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                rounds.add(100 + 10 * random.nextGaussian());
            }
            if (Interval.of(rounds).contains(100)) {
                held++;
            }
        }
        // a percentile bootstrap of 8 rounds is a little narrow: it holds the true median in about nine runs of ten
        assertThat(held / (double) runs).isBetween(0.85, 1.0);
    }

    @Test
    void twoIntervalsThatShareAValueAreLevel() {
        assertThat(new Interval(10, 9, 11, 8).overlaps(new Interval(12, 10.5, 13, 8))).isTrue();
        assertThat(new Interval(10, 9, 11, 8).overlaps(new Interval(12, 11.5, 13, 8))).isFalse();
        assertThat(new Interval(0.5, 0.4, 0.6, 8).times(100)).isEqualTo(new Interval(50, 40, 60, 8));
    }

    @Test
    void roundsInForksGiveAnIntervalThatSpansWhatDiffersBetweenTheForks() {
        // two JVMs of one module, four quiet rounds each, 6 % apart: the rounds alone would rank them, the forks hold both
        java.util.Map<Integer, Double> byRound = new java.util.TreeMap<>();
        double[] first = { 100.0, 100.4, 99.7, 100.1 };
        double[] second = { 106.0, 105.8, 106.3, 106.1 };
        for (int i = 0; i < 4; i++) {
            byRound.put(i + 1, first[i]);
            byRound.put(i + 5, second[i]);
        }
        Interval rounds = Interval.overForks(byRound, round -> 1);
        Interval forks = Interval.overForks(byRound, round -> round <= 4 ? 1 : 2);

        assertThat(rounds).as("one fork: the rounds' own interval").isEqualTo(Interval.of(byRound.values()));
        assertThat(forks.estimate()).isEqualTo(rounds.estimate());
        assertThat(forks.rounds()).isEqualTo(8);
        assertThat(forks.low()).as("as low as the first JVM").isLessThanOrEqualTo(100.4);
        assertThat(forks.high()).as("as high as the second").isGreaterThanOrEqualTo(105.8);
        assertThat(forks.high() - forks.low()).isGreaterThan(rounds.high() - rounds.low());
        assertThat(Interval.overForks(byRound, round -> round <= 4 ? 1 : 2)).as("the same rounds, the same interval").isEqualTo(forks);
    }

    @Test
    void aRoundWithoutAFigureIsLeftOutOfItsFork() {
        java.util.Map<Integer, Double> byRound = new java.util.TreeMap<>();
        byRound.put(1, 10.0);
        byRound.put(2, null);
        byRound.put(3, 11.0);
        byRound.put(4, Double.NaN);
        assertThat(Interval.overForks(byRound, round -> round <= 2 ? 1 : 2).rounds()).isEqualTo(2);
        assertThat(Interval.overForks(new java.util.TreeMap<>(), round -> 1)).isNull();
    }
}
