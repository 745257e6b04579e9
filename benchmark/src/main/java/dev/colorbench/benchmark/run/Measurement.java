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

    public Measurement(Path repositoryRoot, String version, JMeterInstallation jmeter, CpuPlacement placement) {
        this.repositoryRoot = repositoryRoot;
        this.version = version;
        this.jmeter = jmeter;
        this.placement = placement;
    }

    /** Starts, verifies and warms one condition's stores and modules, for as many runs as its caller makes. */
    public Lab open(Condition condition, RunDirectory directory) {
        condition.targets().forEach(target -> rowsStarted.putIfAbsent(target.id(), target));
        Lab lab = Lab.open(condition, directory, repositoryRoot, version, jmeter, placement);
        lastVerification = lab.verification();
        return lab;
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
     * One condition in two JMeter runs: the closed model first, every repetition, which gives each row's throughput; then
     * the open model at half and at 80 % of that throughput, row by row; then each row's CPU profile, under load of its own
     * ({@link Profiler}); then the near caches' staleness, with no load.
     * Everything stops before the results are read.
     */
    public Measured measure(Condition condition, RunDirectory directory) {
        BenchmarkSettings settings = condition.settings();
        try (Lab lab = open(condition, directory)) {
            JMeterResults closed = lab.run(settings, directory, false);
            Map<String, Double> capacity = new LinkedHashMap<>();
            for (Target target : condition.targets()) {
                Spread tps = Spread.of(IntStream.rangeClosed(1, settings.repetitions())
                        .mapToObj(repetition -> closed.samples(new RunKey(target.id(), Phase.THROUGHPUT, repetition)))
                        .map(samples -> samples.isEmpty() ? null : RunStatistics.of(samples, settings.rampupSeconds() * 1000L).tps()).toList());
                capacity.put(target.id(), tps == null ? 1.0 : tps.median());
            }
            JMeterResults open = lab.run(Schedule.atShares(settings, capacity), settings, directory.sub("open-model"));
            Map<String, Profiler.Profile> profiles = settings.profileSeconds() == 0 ? Map.of()
                    : Profiler.profile(lab, settings, settings.profileSeconds(), directory);
            List<Staleness.Result> staleness = lab.measureStaleness();
            return new Measured(condition, lab.verification(), lab.warmups(), staleness, closed.and(open), lab.stores().addedRoundTripMillis(),
                    profiles);
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
