package dev.colorbench.benchmark.scenario;

import java.util.List;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.RunDirectory;
import dev.colorbench.benchmark.modules.ModuleCatalog;
import dev.colorbench.benchmark.modules.Role;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.run.Measurement;

/**
 * What a scenario measures with: the run's knobs, the rows chosen for the run
 * ({@code benchmark.modules}, every module and its declared variants by default), the modules'
 * descriptions, the measurement, and a folder of its own.
 */
public record ScenarioContext(BenchmarkSettings settings, List<Target> targets, ModuleCatalog catalog, Measurement measurement,
        RunDirectory directory) {

    /** Those of {@link #modules()} that read Redis. */
    public List<Target> redisPatterns() {
        return modules().stream().filter(target -> target.module().role() == Role.REDIS_PATTERN).toList();
    }

    /**
     * The rows a scenario measures, each as its module is, without variants: those {@code benchmark.modules} names, or else
     * {@code benchmark.scenarioModules}, one module per way of paying for a read. A scenario starts, warms and measures every
     * row once per condition, so every module at every condition would take hours on two cores.
     */
    public List<Target> modules() {
        return modules(settings, targets, catalog);
    }

    /** {@link #modules()} of a run's settings, rows and catalog, before any scenario runs. */
    static List<Target> modules(BenchmarkSettings settings, List<Target> targets, ModuleCatalog catalog) {
        if (!settings.modules().isEmpty()) {
            return targets.stream().filter(target -> target.properties().isEmpty()).toList();
        }
        return catalog.targets("benchmark.scenarioModules", settings.scenarioModules());
    }
}
