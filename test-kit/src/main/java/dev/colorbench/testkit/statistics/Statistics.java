package dev.colorbench.testkit.statistics;

import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.IntUnaryOperator;

import org.apache.commons.math3.distribution.FDistribution;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * The one statistics core of the project: the median, the percentile, the 95 % interval and the rule that ranks two rows
 * apart or calls them level. Every figure with an interval, every ranking and every "level" on every page comes from here
 * (docs/measuring.md#rounds-and-intervals).
 *
 * <p>The interval is Student's t over fork means, on the logarithm of the figure. A fork is a fresh set of JVMs, and two
 * JVMs of one module differ more than the rounds of one JVM, so the fork, not the round, is the unit of repetition
 * (Kalibera and Jones). A run has few forks but many rows, and every row is started in every fork: the spread of fork means
 * is pooled across the rows, which gives the t interval its degrees of freedom. A row whose own forks differ far more than the
 * pool allows is judged on its own spread instead. The coverage of this procedure is shown by a simulation
 * ({@code StatisticsCoverageTest}), not assumed.
 *
 * <p>Two rows are compared by the ratio of their figures within each round, where the machine's drift during the run cancels.
 * Its interval is the same t interval over fork means of the log-ratio, with the spread pooled from every row's fork means
 * after each round's common level is taken out. Two rows are apart only where that interval excludes 1.
 */
public final class Statistics {

    /** The confidence of every interval the benchmark prints. */
    public static final double CONFIDENCE = 0.95;

    /**
     * How unlikely a row's own spread of forks must be under the pooled spread before the row is judged on its own spread: a row
     * whose JVMs differ far more than the others' would otherwise get an interval too narrow for it.
     */
    static final double OWN_SPREAD_ALPHA = 0.01;

    private Statistics() {
    }

    /** The median: the middle value, or the mean of the middle pair. {@code NaN} for no values. */
    public static double median(double... values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /** The median of the values that are not {@code null}; {@code null} for none. */
    public static Double median(Collection<Double> values) {
        double[] measured = values.stream().filter(Objects::nonNull).mapToDouble(Double::doubleValue).toArray();
        return measured.length == 0 ? null : median(measured);
    }

    /**
     * The {@code percent} percentile by nearest rank: the least value with at least {@code percent} % of the values at or below
     * it. A percentile of latencies is then a latency some request had, and a share of arrivals that never got an answer, counted
     * as at least some bound, reads as that bound. {@code NaN} for no values.
     */
    public static double percentile(double[] values, double percent) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }

    /** The fork, from 1, that runs a round of {@code rounds} split over {@code forks}: in blocks, one after another, as even as they divide. */
    public static IntUnaryOperator blocks(int forks, int rounds) {
        return round -> (int) ((long) (round - 1) * forks / rounds) + 1;
    }

    /**
     * The rows' figures, each measured once a round, in rounds run by forks: the input of every interval and every comparison.
     *
     * @param byRow each row's figure by round ({@code null}, missing or not above 0: not measured)
     * @param forkOf the fork that ran a round
     */
    public static Rounds rounds(Map<String, Map<Integer, Double>> byRow, IntUnaryOperator forkOf) {
        return new Rounds(byRow, forkOf);
    }

    /** Rows measured in the same rounds and forks, and what their figures and ratios are, with 95 % intervals. */
    public static final class Rounds {

        private final IntUnaryOperator forkOf;

        /** Each row's logarithms by fork, then by round. */
        private final Map<String, Map<Integer, Map<Integer, Double>>> logs = new LinkedHashMap<>();

        /** The pooled spread of fork means of the log figures, and its degrees of freedom. */
        private final Pool figures;

        /** The pooled spread of fork means once each round's common level is taken out: what a paired ratio varies by. */
        private final Pool paired;

        /** How many forks ran (at least one row measured in it). */
        private final int forks;

        /** The logs with each round's common level taken out. */
        private final Map<String, Map<Integer, Map<Integer, Double>>> centred;

        /**
         * Each row's scale: its logs are of its figures over its first one, so that a row whose figure never varies gives that
         * figure back exactly, not as the exponential of its logarithm.
         */
        private final Map<String, Double> scales = new LinkedHashMap<>();

        Rounds(Map<String, Map<Integer, Double>> byRow, IntUnaryOperator forkOf) {
            this.forkOf = forkOf;
            byRow.forEach((row, byRound) -> {
                Map<Integer, Map<Integer, Double>> byFork = logs(byRound);
                if (!byFork.isEmpty()) {
                    logs.put(row, byFork);
                    scales.put(row, scale(byRound));
                }
            });
            forks = (int) logs.values().stream().flatMap(byFork -> byFork.keySet().stream()).distinct().count();
            centred = centred();
            figures = Pool.of(logs, false);
            paired = Pool.of(centred, true);
        }

        /** The rows with at least one figure. */
        public List<String> rows() {
            return List.copyOf(logs.keySet());
        }

        /**
         * A row's figure: the geometric mean of its fork means (each fork's the geometric mean of its rounds), with its 95 % interval;
         * {@code null} for a row without a figure.
         */
        public Interval figure(String row) {
            Map<Integer, Map<Integer, Double>> byFork = logs.get(row);
            if (byFork == null) {
                return null;
            }
            return figures.interval(byFork, ownSpread(row)).times(scales.get(row));
        }

        /**
         * The ratio of {@code row}'s figure to {@code base}'s, taken within each round that measured both, with its 95 % interval;
         * {@code null} where no round measured both.
         */
        public Interval ratio(String row, String base) {
            Map<Integer, Map<Integer, Double>> a = logs.get(row);
            Map<Integer, Map<Integer, Double>> b = logs.get(base);
            if (a == null || b == null) {
                return null;
            }
            if (row.equals(base)) {
                // a row against itself: 1 in every round, exactly
                int rounds = a.values().stream().mapToInt(Map::size).sum();
                return new Interval(1, 1, 1, rounds);
            }
            Interval ratio = ratio(a, b, ownSpread(row) || ownSpread(base));
            return ratio == null ? null : ratio.times(scales.get(row) / scales.get(base));
        }

        /**
         * The ratio of {@code row}'s figure to a figure derived from the rows round by round (the floor, say), taken within each
         * round; the derived figure is taken to vary as a row does.
         */
        public Interval ratio(String row, Map<Integer, Double> base) {
            Map<Integer, Map<Integer, Double>> a = logs.get(row);
            Map<Integer, Map<Integer, Double>> b = logs(base);
            if (a == null || b.isEmpty()) {
                return null;
            }
            Interval ratio = ratio(a, b, ownSpread(row));
            return ratio == null ? null : ratio.times(scales.get(row) / scale(base));
        }

        /**
         * A figure derived round by round, from the rows or beside them (the floor, say), with its 95 % interval: the geometric
         * mean of its fork means, its spread taken to be a row's, the pooled one, unless its own forks differ far more than the
         * pool allows; {@code null} where no round has it. The rows' pool stays as it is: a derived figure is no row.
         */
        public Interval figure(Map<Integer, Double> byRound) {
            Map<Integer, Map<Integer, Double>> byFork = logs(byRound);
            if (byFork.isEmpty()) {
                return null;
            }
            return figures.interval(byFork, byFork.size() > 1 && figures.outOfLine(byFork, false)).times(scale(byRound));
        }

        /**
         * Whether the run separates the two rows: the interval of their paired ratio excludes 1. Otherwise they are level. Rows
         * without a ratio, or whose ratio has no spread to judge by (one round), are level. So are all rows of a run in one fork:
         * one JVM a row cannot show how JVMs differ, and its intervals hold the rounds' spread alone (in a simulation where JVMs
         * differ as much as rounds, two thirds of them held the true value).
         */
        public boolean apart(String row, String other) {
            if (forks < 2) {
                return false;
            }
            Interval ratio = ratio(row, other);
            return ratio != null && paired.df() >= 1 && !ratio.contains(1);
        }

        /**
         * Whether the run separates {@code row} from a figure derived round by round (another side of the same row, say): the
         * interval of {@link #ratio(String, Map)} excludes 1, by the rule of {@link #apart(String, String)}.
         */
        public boolean apart(String row, Map<Integer, Double> base) {
            if (forks < 2) {
                return false;
            }
            Interval ratio = ratio(row, base);
            return ratio != null && paired.df() >= 1 && !ratio.contains(1);
        }

        /** Whether a row is judged on its own spread: its forks differ more than the pooled spread allows. */
        public boolean ownSpread(String row) {
            Map<Integer, Map<Integer, Double>> byFork = logs.get(row);
            if (byFork == null || byFork.size() < 2) {
                return false;
            }
            return paired.outOfLine(centred.get(row));
        }

        /** How many forks the run had. */
        public int forks() {
            return forks;
        }

        /** The logs of a row's measured figures over its scale ({@link #scale}), by fork, then by round. */
        private Map<Integer, Map<Integer, Double>> logs(Map<Integer, Double> byRound) {
            Map<Integer, Map<Integer, Double>> byFork = new TreeMap<>();
            double scale = scale(byRound);
            byRound.forEach((round, value) -> {
                if (measured(value)) {
                    byFork.computeIfAbsent(forkOf.applyAsInt(round), fork -> new TreeMap<>()).put(round, Math.log(value / scale));
                }
            });
            return byFork;
        }

        /** A row's first measured figure, by round: what its logs are taken over. */
        private static double scale(Map<Integer, Double> byRound) {
            return new TreeMap<>(byRound).values().stream().filter(Rounds::measured).findFirst().orElse(1.0);
        }

        private static boolean measured(Double value) {
            return value != null && value > 0 && Double.isFinite(value);
        }

        private Interval ratio(Map<Integer, Map<Integer, Double>> a, Map<Integer, Map<Integer, Double>> b, boolean own) {
            Map<Integer, Map<Integer, Double>> differences = new TreeMap<>();
            a.forEach((fork, rounds) -> rounds.forEach((round, value) -> {
                Double other = b.getOrDefault(fork, Map.of()).get(round);
                if (other != null) {
                    differences.computeIfAbsent(fork, f -> new TreeMap<>()).put(round, value - other);
                }
            }));
            if (differences.isEmpty()) {
                return null;
            }
            // the difference of two rows varies as two rows do: twice the pooled variance of one
            return paired.scaled(2).interval(differences, own);
        }

        /** Every row's logs less the mean of every row's log in the same round: the round's common level taken out. */
        private Map<String, Map<Integer, Map<Integer, Double>>> centred() {
            Map<Integer, double[]> levels = new TreeMap<>();
            logs.values().forEach(byFork -> byFork.values().forEach(rounds -> rounds.forEach((round, value) -> {
                double[] sum = levels.computeIfAbsent(round, r -> new double[2]);
                sum[0] += value;
                sum[1]++;
            })));
            Map<String, Map<Integer, Map<Integer, Double>>> centred = new LinkedHashMap<>();
            logs.forEach((row, byFork) -> {
                Map<Integer, Map<Integer, Double>> out = new TreeMap<>();
                byFork.forEach((fork, rounds) -> rounds.forEach((round, value) -> {
                    double[] level = levels.get(round);
                    out.computeIfAbsent(fork, f -> new TreeMap<>()).put(round, value - level[0] / level[1]);
                }));
                centred.put(row, out);
            });
            return centred;
        }
    }

    /**
     * A variance pooled across rows, with its degrees of freedom: of fork means where the rows ran in two forks or more, of rounds
     * where they ran in one.
     *
     * @param variance the pooled variance of one unit (a fork mean, or a round)
     * @param df its degrees of freedom (0: nothing to judge a spread by)
     * @param overForks whether the units are forks
     */
    private record Pool(double variance, double df, boolean overForks) {

        /** @param centred whether each round's common level was taken out of the rows, which costs the pool degrees of freedom */
        static Pool of(Map<String, Map<Integer, Map<Integer, Double>>> rows, boolean centred) {
            boolean overForks = rows.values().stream().anyMatch(byFork -> byFork.size() > 1);
            double squares = 0;
            double df = 0;
            for (Map<Integer, Map<Integer, Double>> byFork : rows.values()) {
                double[] units = units(byFork, overForks);
                if (units.length < 2) {
                    continue;
                }
                double mean = Arrays.stream(units).average().orElseThrow();
                squares += Arrays.stream(units).map(unit -> (unit - mean) * (unit - mean)).sum();
                df += units.length - 1;
            }
            if (centred && rows.size() > 1) {
                // taking out each round's common level uses one degree of freedom of every unit but one, across the rows
                int units = (int) rows.values().stream().mapToLong(byFork -> units(byFork, overForks).length).max().orElse(0);
                df -= Math.max(0, units - 1);
            }
            return new Pool(df > 0 ? squares / df : 0, Math.max(0, df), overForks);
        }

        /** The units of one row: its fork means, or its rounds. */
        static double[] units(Map<Integer, Map<Integer, Double>> byFork, boolean overForks) {
            if (overForks) {
                return byFork.values().stream().mapToDouble(rounds -> rounds.values().stream().mapToDouble(Double::doubleValue).average().orElseThrow())
                        .toArray();
            }
            return byFork.values().stream().flatMap(rounds -> rounds.values().stream()).mapToDouble(Double::doubleValue).toArray();
        }

        Pool scaled(double factor) {
            return new Pool(variance * factor, df, overForks);
        }

        /**
         * Whether a row's own spread of units is beyond what the pool allows at {@link #OWN_SPREAD_ALPHA}: an F test of its
         * variance against the pool's.
         */
        boolean outOfLine(Map<Integer, Map<Integer, Double>> byFork) {
            return outOfLine(byFork, true);
        }

        /** The same, for units that are in the pool ({@code member}) or beside it (a figure derived round by round). */
        boolean outOfLine(Map<Integer, Map<Integer, Double>> byFork, boolean member) {
            double[] units = units(byFork, overForks);
            int own = units.length - 1;
            double othersDf = member ? df - own : df;
            if (own < 1 || othersDf < 1 || variance <= 0) {
                return false;
            }
            double mean = Arrays.stream(units).average().orElseThrow();
            double ownVariance = Arrays.stream(units).map(unit -> (unit - mean) * (unit - mean)).sum() / own;
            // the pool without this row: the test asks whether the row belongs with the others
            double others = member ? (variance * df - ownVariance * own) / othersDf : variance;
            if (others <= 0) {
                return true;
            }
            return new FDistribution(own, othersDf).cumulativeProbability(ownVariance / others) > 1 - OWN_SPREAD_ALPHA;
        }

        /**
         * The t interval of the mean of a row's units (on logs), turned back into the figure's scale; on the row's own spread where
         * {@code own}. A row with one unit, or a pool with nothing to judge by, gets its estimate alone.
         */
        Interval interval(Map<Integer, Map<Integer, Double>> byFork, boolean own) {
            double[] units = units(byFork, overForks);
            int rounds = byFork.values().stream().mapToInt(Map::size).sum();
            double mean = Arrays.stream(units).average().orElseThrow();
            double estimate = Math.exp(mean);
            double unitVariance = variance;
            double degrees = df;
            if (own && units.length > 1) {
                unitVariance = Arrays.stream(units).map(unit -> (unit - mean) * (unit - mean)).sum() / (units.length - 1);
                degrees = units.length - 1;
            }
            if (degrees < 1 || unitVariance <= 0 || units.length < 1) {
                return new Interval(estimate, estimate, estimate, rounds);
            }
            double half = new TDistribution(degrees).inverseCumulativeProbability(1 - (1 - CONFIDENCE) / 2) * Math.sqrt(unitVariance / units.length);
            return new Interval(estimate, Math.exp(mean - half), Math.exp(mean + half), rounds);
        }
    }
}
