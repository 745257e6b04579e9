package dev.colorbench.benchmark.results;

import dev.colorbench.testkit.statistics.Statistics;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.IntUnaryOperator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The intervals hold what they print: runs simulated with a known true figure per row, a known spread between rounds, between
 * JVMs of one row and of the machine's drift common to every row in a round, analysed by the exact procedure of a run
 * ({@link Statistics#rounds}). A "95 %" interval must hold the true value in at least 93 % of the simulated runs, and two rows
 * with the same true figure must be ranked apart in at most 5 % of them (docs/measuring.md#rounds-and-intervals quotes the
 * figures this prints).
 */
class StatisticsCoverageTest {

    /** The headline's shape: 18 rows, 8 rounds in 2 forks. */
    private static final int ROWS = 18;

    private static final int RUNS = 600;

    /** Identical pairs among the rows, as the A/A twin is: rows 0 and 1, 2 and 3, and so on. */
    private static final int PAIRS = 6;

    /** The spread of one round about its JVM's level, on logs: about 6 %, as the reference run's rounds show. */
    private static final double ROUND_SPREAD = 0.06;

    /** The machine's drift, common to every row of a round: about 3 %. */
    private static final double DRIFT = 0.03;

    @Test
    void oneForkRanksNoRowApart() {
        // one JVM a row cannot show how JVMs differ, so its intervals hold the rounds' spread alone: no ranking is drawn from them
        Map<String, Map<Integer, Double>> byRow = Map.of("cheap", Map.of(1, 10.0, 2, 11.0, 3, 10.5), "dear", Map.of(1, 1000.0, 2, 1010.0, 3, 990.0));
        Statistics.Rounds oneFork = Statistics.rounds(byRow, round -> 1);
        Statistics.Rounds twoForks = Statistics.rounds(byRow, round -> round == 1 ? 1 : 2);
        assertThat(oneFork.apart("cheap", "dear")).isFalse();
        assertThat(oneFork.ratio("cheap", "dear").estimate()).isCloseTo(0.01, org.assertj.core.api.Assertions.within(0.001));
        assertThat(twoForks.apart("cheap", "dear")).isTrue();
    }

    @ParameterizedTest(name = "JVMs {0} x the rounds' spread, {1} rounds in {2} forks")
    @CsvSource({ "0, 8, 2", "1, 8, 2", "2, 8, 2", "0, 8, 4", "1, 8, 4", "2, 8, 4" })
    void ninetyFivePercentIntervalsHoldTheTrueValueAndIdenticalRowsAreLevel(double jvmOverRounds, int rounds, int forks) {
        IntUnaryOperator forkOf = round -> (round - 1) * forks / rounds + 1;
        SplittableRandom random = new SplittableRandom(20261201L + (long) (jvmOverRounds * 10) + forks);
        double jvmSpread = jvmOverRounds * ROUND_SPREAD;
        int figuresHeld = 0;
        int figures = 0;
        int ratiosHeld = 0;
        int ratios = 0;
        int identicalApart = 0;
        for (int run = 0; run < RUNS; run++) {
            double[] truth = new double[ROWS];
            for (int row = 0; row < ROWS; row++) {
                // from the ceiling's 60 µs to the database loop's 7,500 µs; the first rows in identical pairs, as A/A pairs are
                truth[row] = row % 2 == 1 && row < 2 * PAIRS ? truth[row - 1] : Math.log(60) + random.nextDouble() * Math.log(7_500 / 60.0);
            }
            double[] drift = new double[rounds + 1];
            for (int round = 1; round <= rounds; round++) {
                drift[round] = DRIFT * random.nextGaussian();
            }
            Map<String, Map<Integer, Double>> byRow = new LinkedHashMap<>();
            for (int row = 0; row < ROWS; row++) {
                Map<Integer, Double> byRound = new TreeMap<>();
                double[] jvm = new double[forks + 1];
                for (int fork = 1; fork <= forks; fork++) {
                    jvm[fork] = jvmSpread * random.nextGaussian();
                }
                for (int round = 1; round <= rounds; round++) {
                    byRound.put(round, Math.exp(truth[row] + jvm[forkOf.applyAsInt(round)] + drift[round] + ROUND_SPREAD * random.nextGaussian()));
                }
                byRow.put("row" + row, byRound);
            }
            Statistics.Rounds analysed = Statistics.rounds(byRow, forkOf);
            for (int row = 0; row < ROWS; row++) {
                figures++;
                if (analysed.figure("row" + row).contains(Math.exp(truth[row]))) {
                    figuresHeld++;
                }
            }
            // the rows after the identical pairs, two by two: pairs of different true figures
            for (int row = 2 * PAIRS; row + 1 < ROWS; row += 2) {
                ratios++;
                if (analysed.ratio("row" + row, "row" + (row + 1)).contains(Math.exp(truth[row] - truth[row + 1]))) {
                    ratiosHeld++;
                }
            }
            for (int pair = 0; pair < PAIRS; pair++) {
                if (analysed.apart("row" + 2 * pair, "row" + (2 * pair + 1))) {
                    identicalApart++;
                }
            }
        }
        double figureCoverage = figuresHeld / (double) figures;
        double ratioCoverage = ratiosHeld / (double) ratios;
        double falseApart = identicalApart / (double) (RUNS * PAIRS);
        System.out.printf("[coverage] JVMs %.0f x rounds, %d rounds in %d forks: figures held %.1f %%, ratios held %.1f %%, identical rows apart %.1f %%%n",
                jvmOverRounds, rounds, forks, 100 * figureCoverage, 100 * ratioCoverage, 100 * falseApart);
        assertThat(figureCoverage).as("share of 95 % intervals of a row's figure that hold its true value").isGreaterThanOrEqualTo(0.93);
        assertThat(ratioCoverage).as("share of 95 % intervals of a paired ratio that hold the true ratio").isGreaterThanOrEqualTo(0.93);
        // a calibrated 95 % rule ranks identical rows apart 5 % of the time: the bound allows the simulation's own sampling error,
        // 2.33 standard errors of a share of 5 % over its pairs (a one-sided 99 % bound)
        double allowance = 2.33 * Math.sqrt(0.05 * 0.95 / (RUNS * PAIRS));
        assertThat(falseApart).as("share of identical pairs ranked apart").isLessThanOrEqualTo(0.05 + allowance);
    }
}
