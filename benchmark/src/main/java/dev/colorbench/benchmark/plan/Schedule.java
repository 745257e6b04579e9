package dev.colorbench.benchmark.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.colorbench.benchmark.BenchmarkSettings;

/**
 * The order of the whole run. Rounds are interleaved across rows (A B C, C A B, ...), each round in an order of its own, so
 * that drift on a shared machine hits every row alike and each round pairs every row with the others, and JMeter first loads every row once, unmeasured (a
 * warm-up round, A B C), so that each row's first round comes, like its later ones, after the other
 * rows' turns, and after JMeter's own JIT has had every row's load (each row is already warmed up,
 * see {@code run.SteadyState}). JMeter starts cold: with its warm-up right before each row's first run, the
 * first rows of a full run serve least in their first repetition, so the round lasts at least
 * {@value #JMETER_START_SECONDS} s in all, however few the rows (docs/measuring.md#warm-up-and-steady-state).
 */
public record Schedule(List<Run> runs) {

    /**
     * One thread group: which run, how many seconds of load it plans and, for the open model, its
     * own arrival rate (null: the run's). {@code drainSeconds} above 0 makes an open-model run one of new clients: every
     * arrival a new connection, and that long a wait at the end for requests still out (an overloaded module has many).
     * At 0, a pool of threads on kept-alive connections takes the arrivals, and runs on for {@link #DRAIN_SECONDS} after them
     * (docs/measuring.md#latency-at-a-share-of-throughput).
     */
    public record Run(RunKey key, int seconds, Integer rate, int drainSeconds) {

        Run(RunKey key, int seconds) {
            this(key, seconds, null, 0);
        }

        /** An open-model run: at a share of a row's throughput, the overload step's, or a warm-up at a row's own rate. */
        public boolean openModel() {
            return key.phase().openModel() || rate != null;
        }
    }

    /** Seconds of JMeter's own warm-up on each row before the open model's runs at a share of each row's throughput. */
    static final int OPEN_MODEL_WARMUP_SECONDS = 2;

    /**
     * How long an open-model run goes on after its arrivals' window, JMeter's response timeout: the overload step's new
     * clients wait that long for the last answers, and the pool sends the arrivals it took late. An arrival still unsent then
     * is dropped: its caller would have timed out (docs/measuring.md#latency-at-a-share-of-throughput).
     */
    public static final int DRAIN_SECONDS = 10;

    /** The least the warm-up round of a full run lasts in all: JMeter's own JIT, before any row is measured. */
    static final int JMETER_START_SECONDS = 20;

    public Schedule {
        runs = List.copyOf(runs);
    }

    public static Schedule of(BenchmarkSettings settings, List<String> targets) {
        return of(settings, targets, true);
    }

    /** The same, with or without the open-model runs (a scenario that compares throughput leaves them out). */
    public static Schedule of(BenchmarkSettings settings, List<String> targets, boolean openModel) {
        return of(settings, targets, openModel, java.util.stream.IntStream.rangeClosed(1, settings.repetitions()).boxed().toList());
    }

    /**
     * The same, for some of the rounds only: one fork's, each in the order it has in the whole run. JMeter's warm-up round comes
     * first in each, since each fork is a JMeter of its own.
     */
    public static Schedule of(BenchmarkSettings settings, List<String> targets, boolean openModel, List<Integer> rounds) {
        List<Run> runs = new ArrayList<>();
        if (settings.jmeterWarmupSeconds() > 0) {
            int others = (targets.size() - 1) * settings.jmeterWarmupSeconds();
            for (String target : targets) {
                boolean first = runs.isEmpty() && !settings.quick();
                int seconds = first ? Math.max(settings.jmeterWarmupSeconds(), JMETER_START_SECONDS - others) : settings.jmeterWarmupSeconds();
                runs.add(new Run(new RunKey(target, Phase.WARMUP, 0), seconds));
            }
        }
        for (int repetition : rounds) {
            for (String target : roundOrder(targets, repetition, settings.seed())) {
                runs.add(new Run(new RunKey(target, Phase.THROUGHPUT, repetition), settings.durationSeconds()));
                if (openModel) {
                    runs.add(new Run(new RunKey(target, Phase.LATENCY, repetition), settings.latencyDurationSeconds()));
                }
            }
        }
        return new Schedule(runs);
    }

    /** The target of the floor's steps ({@link Phase#FLOOR}): no row, but the harness's own measurement of Redis. */
    static final String FLOOR = "floor";

    /**
     * This schedule with one step of the floor in each of its closed-model rounds: the harness sends one GET of the whole palette,
     * then one MGET of its keys, for as long as a closed-model run each, and reads Redis's CPU around them. The step takes a
     * place of its own in each round, as a row does, so that the machine's drift reaches it as it reaches the rows; the place
     * comes from the run's seed, from a stream of its own, so that the rows keep the orders a seed gives them
     * (docs/measuring.md#the-floor). Once a round, not once a fork: {@code x floor} is a ratio taken within each round, so it
     * needs the floor of each round, at the cost of two closed-model runs a round, as two more rows would take.
     */
    public Schedule withFloor(BenchmarkSettings settings) {
        // each round's rows, where each starts in the schedule, and where the round ends
        Map<Integer, List<Integer>> rowStarts = new java.util.TreeMap<>();
        Map<Integer, Integer> roundEnds = new java.util.TreeMap<>();
        for (int index = 0; index < runs.size(); index++) {
            RunKey key = runs.get(index).key();
            if (key.phase() == Phase.THROUGHPUT) {
                rowStarts.computeIfAbsent(key.repetition(), round -> new ArrayList<>()).add(index);
            }
            if (key.phase() == Phase.THROUGHPUT || key.phase() == Phase.LATENCY) {
                roundEnds.put(key.repetition(), index + 1);
            }
        }
        List<Run> withFloor = new ArrayList<>(runs);
        // from the last round back, so that the places of the earlier ones stay where they were
        List<Integer> rounds = new ArrayList<>(rowStarts.keySet());
        java.util.Collections.reverse(rounds);
        for (int round : rounds) {
            List<Integer> starts = rowStarts.get(round);
            int place = floorPlace(starts.size(), round, settings.seed());
            withFloor.add(place < starts.size() ? starts.get(place) : roundEnds.get(round), floorStep(settings, round));
        }
        return new Schedule(withFloor);
    }

    private static Run floorStep(BenchmarkSettings settings, int round) {
        return new Run(new RunKey(FLOOR, Phase.FLOOR, round), floorSeconds(settings));
    }

    /** The seconds of one floor step: a closed-model run's for the GET, as many for the MGET. */
    static int floorSeconds(BenchmarkSettings settings) {
        return 2 * settings.durationSeconds();
    }

    /** Where the floor's step goes among a round's {@code rows}: before the row at that place, or after the last at {@code rows}. */
    static int floorPlace(int rows, int round, long seed) {
        return new java.util.SplittableRandom(seed + round).split().nextInt(rows + 1);
    }

    /**
     * The rows of one round in an order of their own: the same for the same round and rows, different from round to round
     * (randomized multiple interleaved trials, after Laaber et al.), so that no row always follows the same neighbour or
     * always comes early in a round (docs/measuring.md#rounds-and-intervals). The orders come from the run's {@code seed}: the
     * same seed repeats them, another draws others.
     */
    static List<String> roundOrder(List<String> targets, int round, long seed) {
        List<String> order = new ArrayList<>(targets);
        java.util.Collections.shuffle(order, new java.util.Random(new java.util.SplittableRandom(seed + round).nextLong()));
        return order;
    }

    /**
     * Only open-model runs, each row at its own arrival rate: an overload step, each row offered
     * more than it was measured to serve.
     */
    public static Schedule openModel(BenchmarkSettings settings, Map<String, Integer> ratePerTarget) {
        List<Run> runs = new ArrayList<>();
        for (int repetition = 1; repetition <= settings.repetitions(); repetition++) {
            for (Map.Entry<String, Integer> target : ratePerTarget.entrySet()) {
                runs.add(new Run(new RunKey(target.getKey(), Phase.LATENCY, repetition), settings.latencyDurationSeconds(), target.getValue(),
                        DRAIN_SECONDS));
            }
        }
        return new Schedule(runs);
    }

    /**
     * Open-model runs at a share of each row's own closed-model throughput ({@code capacity}, requests per second): half, then
     * 80 %, one run each of the open model's duration, rows one after another. A row's percentiles pool its requests.
     */
    public static Schedule atShares(BenchmarkSettings settings, Map<String, Double> capacity) {
        List<Run> runs = new ArrayList<>();
        // a JMeter process of its own starts cold: a round of its warm-up first, or the first row's arrivals wait on JMeter. It
        // runs the measured runs' pool at half load, so that JMeter has compiled the plan's scripts before any arrival is timed
        int warmup = Math.min(OPEN_MODEL_WARMUP_SECONDS, settings.jmeterWarmupSeconds());
        if (warmup > 0) {
            capacity.forEach((target, tps) -> runs.add(new Run(new RunKey(target, Phase.WARMUP, 0), warmup, offered(settings, tps, Phase.HALF), 0)));
        }
        for (Map.Entry<String, Double> target : capacity.entrySet()) {
            for (Phase share : List.of(Phase.HALF, Phase.EIGHTY)) {
                if (sameStep(settings, target.getValue(), share)) {
                    continue;
                }
                runs.add(new Run(new RunKey(target.getKey(), share, 1), settings.latencyDurationSeconds(), offered(settings, target.getValue(), share),
                        0));
            }
        }
        return new Schedule(runs);
    }

    /**
     * The arrivals a second the open model offers a row at {@code share} of its {@code tps}, at most {@code benchmark.openModelCap}:
     * on the two cores it shares with the modules, JMeter cannot offer more without becoming the bottleneck
     * (docs/measuring.md#latency-at-a-share-of-throughput).
     */
    public static int offered(BenchmarkSettings settings, double tps, Phase share) {
        return (int) Math.max(1, Math.min(settings.openModelCap(), Math.round(tps * share.share())));
    }

    /**
     * Whether {@code share} of a row's {@code tps} is the step before it at the same rate: 80 % is half again when the open
     * model's cap holds both to {@code benchmark.openModelCap}. Such a step is run once, and named by its rate.
     */
    public static boolean sameStep(BenchmarkSettings settings, double tps, Phase share) {
        return share == Phase.EIGHTY && offered(settings, tps, Phase.EIGHTY) == offered(settings, tps, Phase.HALF);
    }

    /** One closed-model run of {@code seconds} per row, rows one after another, in no figure: what a CPU profile samples. */
    public static Schedule profile(List<String> targets, int seconds) {
        return new Schedule(targets.stream().map(target -> new Run(new RunKey(target, Phase.PROFILE, 1), seconds)).toList());
    }

    /** One closed-model run of one row, nothing before it: for a run something happens during. */
    public static Schedule closedModel(String target, int seconds) {
        return new Schedule(List.of(new Run(new RunKey(target, Phase.THROUGHPUT, 1), seconds)));
    }

    public List<Run> measured() {
        return runs.stream().filter(run -> run.key().phase().measured()).toList();
    }

    /** The seconds of load the plan asks for, without JMeter's start and the readings in between. */
    public long plannedSeconds() {
        return runs.stream().mapToLong(Run::seconds).sum();
    }
}
