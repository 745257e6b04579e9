package dev.colorbench.benchmark;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.colorbench.benchmark.modules.ModuleCatalog;
import dev.colorbench.benchmark.modules.Store;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.plan.Schedule;
import dev.colorbench.benchmark.report.Profiles;
import dev.colorbench.benchmark.report.Fleet;
import dev.colorbench.benchmark.report.Report;
import dev.colorbench.benchmark.report.Section;
import dev.colorbench.benchmark.run.Condition;
import dev.colorbench.benchmark.run.CpuPlacement;
import dev.colorbench.benchmark.run.JMeterInstallation;
import dev.colorbench.benchmark.run.MachineSteadiness;
import dev.colorbench.benchmark.run.Measured;
import dev.colorbench.benchmark.run.Measurement;
import dev.colorbench.benchmark.run.ModuleLauncher;
import dev.colorbench.benchmark.run.Profiler;
import dev.colorbench.benchmark.scenario.Scenario;
import dev.colorbench.benchmark.scenario.ScenarioContext;
import dev.colorbench.benchmark.scenario.Scenarios;


/**
 * {@code ./mvnw -Pbenchmark verify}: one benchmark run, every stage in order, in this one process.
 * Prepare (settings, modules, jars, JMeter), start the data stores and one JVM per row, wait for
 * health, verify every answer and measure its Redis cost, write the plan, run JMeter on it, stop
 * everything (also on failure, Ctrl-C or {@code kill} of Maven), then read the results, write the
 * report and fail on errors.
 *
 * <p>Arguments: the repository root, the project version (the jars' names), the JMeter version.
 * Public only because exec:java calls it.
 */
public final class Benchmark {

    /**
     * Windows of the machine's own steadiness before the rows, and as many after: each as long as a closed-model run. One
     * each: what matters is whether the machine did the same work before and after, and every window lengthens a full run
     * (docs/measuring.md#rounds-and-intervals).
     */
    private static final int STEADINESS_WINDOWS = 1;

    private Benchmark() {
    }

    public static void main(String[] args) {
        Path repositoryRoot = Path.of(args[0]).toAbsolutePath().normalize();
        String version = args[1];
        BenchmarkSettings settings = BenchmarkSettings.from(System.getProperties(), System.getenv());
        // the report reads it at the end: a wrong value fails here, not after the run
        Fleet.rates();
        ModuleCatalog catalog = ModuleCatalog.read(repositoryRoot);
        List<Target> targets = catalog.targets(settings.modules());
        List<Scenario> scenarios = Scenarios.chosen(settings.scenarios());
        ModuleLauncher.requireJars(targets, repositoryRoot, version);
        if ((!scenarios.isEmpty() || Scenarios.workload(settings.scenarios())) && settings.modules().isEmpty()) {
            // checked before the headline's half hour, not after it
            ModuleLauncher.requireJars(catalog.targets("benchmark.scenarioModules", settings.scenarioModules()), repositoryRoot, version);
        }
        ModuleLauncher.requireJars(Scenarios.copies(scenarios, settings, targets, catalog, repositoryRoot), repositoryRoot, version);
        JMeterInstallation jmeter = JMeterInstallation.configuredIn(repositoryRoot.resolve("jmeter/target"), args[2]);
        RunDirectory directory = RunDirectory.fresh(repositoryRoot.resolve("benchmark/target/benchmark"));
        Console.info("%s run: %d round(s), %d threads, %d s closed model per row and round, then %d s of open model at half and at 80 %% "
                .formatted(settings.quick() ? "quick" : "full", settings.repetitions(), settings.threads(), settings.durationSeconds(),
                        settings.latencyDurationSeconds())
                + "of each row's closed-model TPS; each row warmed up first, until its JIT is quiet and its throughput no longer climbs, or for at most "
                + settings.warmupLimitSeconds() + " s at the measured load; rounds' orders from seed " + settings.seed()
                + " (-Dbenchmark.seed=" + settings.seed() + " repeats them)");

        Report report = null;
        try (CpuPlacement placement = CpuPlacement.apply(settings.cpus())) {
            Measurement measurement = new Measurement(repositoryRoot, version, jmeter, placement);
            if (Scenarios.headline(settings.scenarios())) {
                report = headline(settings, Target.withTwin(targets, settings.twin()), measurement, directory, repositoryRoot,
                        Condition.plain(Scenarios.HEADLINE, settings, Target.withTwin(targets, settings.twin())));
            }
            else if (Scenarios.workload(settings.scenarios())) {
                List<Target> rows = Target.withTwin(workloadRows(settings, targets, catalog), settings.twin());
                Console.info("the headline under your workload: " + settings.workload().describe());
                report = headline(settings, rows, measurement, directory, repositoryRoot,
                        Condition.plain(Workload.SCENARIO, settings, rows).under(settings.workload()));
            }
            List<Section> sections = new ArrayList<>();
            for (Scenario scenario : scenarios) {
                int warmedBefore = measurement.warmupCount();
                Section section = scenario.run(new ScenarioContext(settings, targets, catalog, measurement, directory));
                sections.add(Scenarios.withWarmups(section, measurement.warmupsSince(warmedBefore), settings.forScenario(settings.threads())));
            }
            if (report == null) {
                // scenarios only: the environment says what they ran, with their knobs, not the headline's
                report = Report.of(settings.forScenario(settings.threads()), measurement.rowsStarted(), measurement.redisVersion(),
                        measurement.redis(), jmeter.version(), placement, repositoryRoot);
            }
            for (Section section : sections) {
                report = report.with(section);
            }
        }
        Report finished = report;
        Timeline.timed("report", () -> finished.write(directory));
        System.out.println();
        System.out.println(report.table());
        Console.info("report: " + directory.file("report.html"));
        Console.info("table:  " + directory.file("report.md") + ", data: " + directory.file("summary.json"));
        Console.info("where the time went: " + Timeline.describe());
        RunDirectory.write(directory.file("timeline.json"), Json.MAPPER.writeValueAsString(Timeline.seconds()));
        directory.compact();
        Console.info("kept: the report, its data and every sample, gzipped, in " + directory.root());
        report.failOnProblems();
    }

    /**
     * The headline comparison: every chosen row on loopback, verified, warmed, measured in both models; JMeter's dashboards beside it.
     * The machine's own steadiness is read before the rows start and after they stop, {@value #STEADINESS_WINDOWS} window each
     * time, each as long as a closed-model run: what the rows' ranges are to be judged against.
     */
    private static Report headline(BenchmarkSettings settings, List<Target> targets, Measurement measurement, RunDirectory directory,
            Path repositoryRoot, Condition condition) {
        Progress.begin(settings, targets.size(), Runtime.getRuntime().availableProcessors(),
                Schedule.of(settings, targets.stream().map(Target::id).toList(), false).withFloor(settings).plannedSeconds());
        MachineSteadiness before = Timeline.timed("machine steadiness",
                () -> MachineSteadiness.measure(STEADINESS_WINDOWS, settings.durationSeconds()).print("before the rows start"));
        Measured measured = measurement.measure(condition, directory);
        MachineSteadiness machine = Timeline.timed("machine steadiness",
                () -> before.and(MachineSteadiness.measure(STEADINESS_WINDOWS, settings.durationSeconds())).print("before and after the rows"));
        JMeterInstallation jmeter = measurement.jmeter();
        Map<String, Path> samples = new LinkedHashMap<>();
        targets.forEach(target -> samples.put(target.id(), samples(directory, target)));
        Timeline.timed("each row's samples", () -> measured.results().writeMeasured(samples));
        if (settings.dashboards()) {
            // one report-generator JVM per row, each busy on one core: a parallel stream runs as many at once as there are cores
            Timeline.timed("JMeter's dashboards", () -> targets.parallelStream()
                    .forEach(target -> jmeter.dashboard(samples(directory, target), directory.target(target.id()), target.id())));
        }
        Progress.end();
        Report report = Report.of(settings, targets, measured, machine, jmeter.version(), measurement.placement(), repositoryRoot);
        return settings.profileSeconds() == 0 ? report : report.with(Profiles.section(targets, measured.profiles(), Profiler.loadSeconds(settings)));
    }

    /**
     * The rows of the workload run: those {@code benchmark.modules} names, else one per way of paying for a read
     * ({@code benchmark.scenarioModules}) without the PostgreSQL baselines: the workload is about Redis, and its round trip is
     * added on the path to Redis only.
     */
    private static List<Target> workloadRows(BenchmarkSettings settings, List<Target> targets, ModuleCatalog catalog) {
        if (!settings.modules().isEmpty()) {
            return targets;
        }
        return catalog.targets("benchmark.scenarioModules", settings.scenarioModules()).stream()
                .filter(target -> target.module().store() != Store.POSTGRESQL).toList();
    }

    private static Path samples(RunDirectory directory, Target target) {
        return directory.target(target.id()).resolve("results.csv");
    }
}
