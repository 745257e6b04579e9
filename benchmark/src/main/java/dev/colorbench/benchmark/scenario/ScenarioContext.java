package dev.colorbench.benchmark.scenario;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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

    /** The chosen rows that read Redis, each as its module is, without variants (a representative few in quick mode). */
    public List<Target> redisPatterns() {
        return modules().stream().filter(target -> target.module().role() == Role.REDIS_PATTERN).toList();
    }

    /**
     * The chosen rows as their modules are, without variants. A quick run (CI's smoke test of the
     * scenarios) takes a representative few unless {@code benchmark.modules} names them: the
     * ceiling, the reference row, and the first module of each stack and data store not yet among them.
     */
    public List<Target> modules() {
        List<Target> modules = targets.stream().filter(target -> target.properties().isEmpty()).toList();
        if (!settings.quick() || !settings.modules().isEmpty()) {
            return modules;
        }
        List<Target> few = new ArrayList<>();
        Set<String> kinds = new HashSet<>();
        for (Target target : modules) {
            String kind = target.module().stack() + " " + target.module().store();
            if (target.module().role() == Role.CEILING || target.id().equals(settings.reference()) || kinds.add(kind)) {
                few.add(target);
                kinds.add(kind);
            }
        }
        return few;
    }
}
