package dev.colorbench.benchmark.run;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.RunDirectory;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.plan.Phase;
import dev.colorbench.benchmark.plan.RunKey;
import dev.colorbench.benchmark.plan.Schedule;
import dev.colorbench.benchmark.results.JMeterResults;
import dev.colorbench.benchmark.results.RunStatistics;
import dev.colorbench.benchmark.results.Spread;

/** Where measurements are made: this repository's built modules and the JMeter the build installed. */
public final class Measurement {

    private final Path repositoryRoot;

    private final String version;

    private final JMeterInstallation jmeter;

    private final CpuPlacement placement;

    private Verification lastVerification;

    private final Map<String, Target> rowsStarted = new LinkedHashMap<>();

    /**
     * Every warm-up of every condition opened so far, in order, each row named with its condition ({@code row (condition)}): a
     * scenario's report says how many of its own settled, and which did not, in which condition.
     */
    private final List<SteadyState.Warmup> warmups = new java.util.ArrayList<>();

    /**
     * Each row's seconds in its last warm-up, any condition's: the next warm-up pairs rows of like times, so that a pair's faster row
     * leaves its core idle the least (docs/measuring.md#warm-up-and-steady-state).
     */
    private final Map<String, Double> lastWarmupSeconds = new java.util.HashMap<>();

    public Measurement(Path repositoryRoot, String version, JMeterInstallation jmeter, CpuPlacement placement) {
        this.repositoryRoot = repositoryRoot;
        this.version = version;
        this.jmeter = jmeter;
        this.placement = placement;
    }

    /** Starts, verifies and warms one condition's stores and modules, for as many runs as its caller makes. */
    public Lab open(Condition condition, RunDirectory directory) {
        condition.targets().forEach(target -> rowsStarted.putIfAbsent(target.id(), target));
        Lab lab = Lab.open(condition, directory, repositoryRoot, version, jmeter, placement, Map.copyOf(lastWarmupSeconds));
        lab.warmups().forEach(warmup -> lastWarmupSeconds.put(warmup.target(), warmup.seconds()));
        lastVerification = lab.verification();
        lab.warmups().forEach(warmup -> warmups.add(new SteadyState.Warmup(warmup.target() + " (" + condition.name() + ")", warmup.seconds(),
                warmup.steady(), warmup.lastWindows(), warmup.jitMillis(), warmup.requests(), warmup.errors())));
        return lab;
    }

    /** How many warm-ups were made so far: {@link #warmupsSince} from it gives what came after. */
    public int warmupCount() {
        return warmups.size();
    }

    /** The warm-ups of the conditions opened after {@code count} warm-ups had been made, every condition's row in its own. */
    public List<SteadyState.Warmup> warmupsSince(int count) {
        return List.copyOf(warmups.subList(Math.min(count, warmups.size()), warmups.size()));
    }

    /** Every row started so far, in the order first started: what a run of scenarios only measured. */
    public List<Target> rowsStarted() {
        return List.copyOf(rowsStarted.values());
    }

    /** The Redis version of the last condition opened, for the report's environment. */
    public String redisVersion() {
        return lastVerification == null ? "unknown" : lastVerification.redisVersion();
    }

    /** Which Redis the last condition used, without its password. */
    public String redis() {
        return lastVerification == null ? "unknown" : lastVerification.redis();
    }

    /**
     * One condition, its closed-model rounds split over {@code benchmark.forks} fresh sets of JVMs: each fork starts, verifies
     * and warms every row, then runs its rounds, so that the intervals span what differs from one JVM to the next
     * (docs/measuring.md#rounds-and-intervals). Each round has the harness measure the floor's Redis work too, at a place of its
     * own among the rows ({@link Schedule#withFloor}). The last fork then runs the open model at half and at 80 % of each row's
     * throughput, row by row; then each row's CPU profile, under load of its own ({@link Profiler}); then the near caches'
     * staleness, with no load. Everything stops before the results are read.
     */
    public Measured measure(Condition condition, RunDirectory directory) {
        BenchmarkSettings settings = condition.settings();
        List<String> rows = condition.targets().stream().map(Target::id).toList();
        JMeterResults closed = null;
        List<List<SteadyState.Warmup>> warmups = new java.util.ArrayList<>();
        for (int fork = 1; fork < settings.forks(); fork++) {
            RunDirectory forkDirectory = directory.sub("fork-" + fork);
            dev.colorbench.benchmark.Console.info("fork %d of %d: rounds %s, every row in a fresh JVM".formatted(fork, settings.forks(), settings.roundsOf(fork)));
            try (Lab lab = open(condition, forkDirectory)) {
                JMeterResults part = lab.run(Schedule.of(settings, rows, false, settings.roundsOf(fork)).withFloor(settings), settings, forkDirectory);
                closed = closed == null ? part : closed.and(part);
                warmups.add(lab.warmups());
            }
        }
        if (settings.forks() > 1) {
            dev.colorbench.benchmark.Console.info("fork %d of %d: rounds %s, every row in a fresh JVM".formatted(settings.forks(), settings.forks(),
                    settings.roundsOf(settings.forks())));
        }
        try (Lab lab = open(condition, directory)) {
            JMeterResults part = lab.run(Schedule.of(settings, rows, false, settings.roundsOf(settings.forks())).withFloor(settings), settings, directory);
            closed = closed == null ? part : closed.and(part);
            warmups.add(lab.warmups());
            Map<String, Double> capacity = new LinkedHashMap<>();
            for (Target target : condition.targets()) {
                JMeterResults all = closed;
                Spread tps = Spread.of(IntStream.rangeClosed(1, settings.repetitions())
                        .mapToObj(repetition -> all.samples(new RunKey(target.id(), Phase.THROUGHPUT, repetition)))
                        .map(samples -> samples.isEmpty() ? null : RunStatistics.of(samples, settings.rampupSeconds() * 1000L).tps()).toList());
                capacity.put(target.id(), tps == null ? 1.0 : tps.median());
            }
            JMeterResults open = lab.run(Schedule.atShares(settings, capacity), settings, directory.sub("open-model"));
            Map<String, Profiler.Profile> profiles = settings.profileSeconds() == 0 ? Map.of()
                    : Profiler.profile(lab, settings, settings.profileSeconds(), directory);
            List<Staleness.Result> staleness = lab.measureStaleness();
            return new Measured(condition, lab.verification(), SteadyState.Warmup.acrossForks(warmups), staleness, closed.and(open),
                    lab.stores().addedRoundTripMillis(), profiles);
        }
    }

    public CpuPlacement placement() {
        return placement;
    }

    public JMeterInstallation jmeter() {
        return jmeter;
    }

    public Path repositoryRoot() {
        return repositoryRoot;
    }

    /** The project version, part of every module jar's name. */
    public String version() {
        return version;
    }
}
