package dev.colorbench.benchmark.run;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.colorbench.benchmark.RunDirectory;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.results.JMeterResults;

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

    /** One condition, one JMeter run of its own settings, everything stopped before the results are read. */
    public Measured measure(Condition condition, RunDirectory directory) {
        try (Lab lab = open(condition, directory)) {
            JMeterResults results = lab.run(condition.settings(), directory);
            return new Measured(condition, lab.verification(), lab.warmups(), lab.staleness(), results, lab.stores().addedRoundTripMillis());
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
