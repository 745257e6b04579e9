package dev.colorbench.benchmark.results;

import dev.colorbench.testkit.statistics.Statistics;
import dev.colorbench.testkit.statistics.Interval;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A figure derived round by round beside the rows (the floor) gets its interval from the rows' pooled spread, and leaves that
 * pool as it was (docs/measuring.md#the-floor).
 */
class DerivedFigureTest {

    private static final java.util.function.IntUnaryOperator FORKS = round -> round <= 4 ? 1 : 2;

    @Test
    void aSeriesLikeARowsGetsTheRowsIntervalAndChangesNoRowsInterval() {
        Map<String, Map<Integer, Double>> rows = new LinkedHashMap<>();
        rows.put("a", series(100, 0.03, 1));
        rows.put("b", series(200, 0.05, 2));
        rows.put("c", series(50, 0.04, 3));
        Statistics.Rounds rounds = Statistics.rounds(rows, FORKS);
        Interval ownFigure = rounds.figure("b");

        Interval derived = rounds.figure(rows.get("b"));

        assertThat(derived.estimate()).isCloseTo(ownFigure.estimate(), within(1e-9));
        assertThat(derived.rounds()).isEqualTo(8);
        assertThat(derived.low()).isLessThan(derived.estimate());
        assertThat(derived.high()).isGreaterThan(derived.estimate());
        assertThat(rounds.figure("b")).as("the pool is the rows' alone").isEqualTo(ownFigure);
        assertThat(rounds.figure(Map.of())).isNull();
    }

    @Test
    void aSeriesWhoseForksDifferFarMoreThanThePoolAllowsIsJudgedOnItsOwnSpread() {
        Map<String, Map<Integer, Double>> rows = new LinkedHashMap<>();
        for (int row = 0; row < 8; row++) {
            rows.put("row" + row, series(100 + row, 0.02, row));
        }
        Statistics.Rounds rounds = Statistics.rounds(rows, FORKS);
        // its second fork 40 % above its first: far beyond the rows' forks
        Map<Integer, Double> apart = new TreeMap<>();
        for (int round = 1; round <= 8; round++) {
            apart.put(round, round <= 4 ? 100.0 : 140.0);
        }

        Interval derived = rounds.figure(apart);

        assertThat(derived.low()).as("as low as its first fork").isLessThanOrEqualTo(100);
        assertThat(derived.high()).as("as high as its second").isGreaterThanOrEqualTo(140);
    }

    /** Eight rounds around {@code level}, each off by up to {@code spread} of it, from a seed of its own. */
    private static Map<Integer, Double> series(double level, double spread, long seed) {
        java.util.Random random = new java.util.Random(seed);
        Map<Integer, Double> byRound = new TreeMap<>();
        for (int round = 1; round <= 8; round++) {
            byRound.put(round, level * (1 + spread * (2 * random.nextDouble() - 1)));
        }
        return byRound;
    }
}
