package dev.colorbench.benchmark.run;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Console;
import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.RunDirectory;
import dev.colorbench.benchmark.Timeline;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.plan.BodyCheck;
import dev.colorbench.benchmark.plan.PlanWriter;
import dev.colorbench.benchmark.plan.Schedule;
import dev.colorbench.benchmark.results.JMeterResults;

/**
 * One condition's data stores and module JVMs, started, verified before any load and warmed up
 * ({@link SteadyState}), ready for one JMeter run or several (a scenario changes one thing between them);
 * closing it stops them all, as does Maven's JVM ending early ({@link ChildProcesses}).
 * How stale a near-cache row gets is measured when its caller asks, after its load: a row known to stay stale
 * may keep a color it was written, which would fail every answer of a load after it.
 */
public final class Lab implements AutoCloseable {

    private final Condition condition;

    private final ChildProcesses processes;

    private final DataStores stores;

    private final List<RunningModule> modules;

    private final Verification verification;

    private final List<SteadyState.Warmup> warmups;

    private final Path checkedInPlans;

    private final JMeterInstallation jmeter;

    private final CpuPlacement placement;

    private final CpuReadings cpu;

    private final Path logs;

    private Lab(Condition condition, ChildProcesses processes, DataStores stores, List<RunningModule> modules, Verification verification,
            List<SteadyState.Warmup> warmups, Path checkedInPlans, JMeterInstallation jmeter,
            CpuPlacement placement, CpuReadings cpu, Path logs) {
        this.condition = condition;
        this.processes = processes;
        this.stores = stores;
        this.modules = modules;
        this.verification = verification;
        this.warmups = warmups;
        this.checkedInPlans = checkedInPlans;
        this.jmeter = jmeter;
        this.placement = placement;
        this.cpu = cpu;
        this.logs = logs;
    }

    static Lab open(Condition condition, RunDirectory directory, Path repositoryRoot, String version, JMeterInstallation jmeter,
            CpuPlacement placement, java.util.Map<String, Double> earlierWarmupSeconds) {
        ChildProcesses processes = new ChildProcesses();
        try {
            DataStores stores = Timeline.timed("data stores", () -> DataStores.start(condition, processes));
            List<RunningModule> modules = Timeline.timed("starting the modules", () -> new ModuleLauncher(condition, directory, processes)
                    .start(condition.targets(), stores, repositoryRoot, version));
            Verification verification = Timeline.timed("verifying", () -> Verifier.verify(modules, stores, condition.expectedPalette()));
            List<SteadyState.Warmup> warmups = Timeline.timed("warming up", () -> new SteadyState(condition.settings()).warm(modules,
                    earlierWarmupSeconds));
            // closed before the Redis it writes to, which was started first: its keys are deleted while Redis still runs
            RedisFloor floor = processes.own("the floor's keys in Redis", RedisFloor.of(stores.redisUrl(), condition));
            CpuReadings cpu = processes.own("CPU readings", CpuReadings.serve(modules, stores, floor));
            return new Lab(condition, processes, stores, modules, verification, warmups,
                    repositoryRoot.resolve("jmeter/plans"), jmeter, placement, cpu, directory.logs());
        }
        catch (RuntimeException ex) {
            processes.close();
            throw ex;
        }
    }

    /** Runs JMeter on the plan of {@code settings} for every row, writing into {@code directory}, and reads what it recorded. */
    public JMeterResults run(BenchmarkSettings settings, RunDirectory directory) {
        return run(settings, directory, true);
    }

    /** The same, with or without the open-model runs. */
    public JMeterResults run(BenchmarkSettings settings, RunDirectory directory, boolean openModel) {
        return run(Schedule.of(settings, condition.targets().stream().map(Target::id).toList(), openModel), settings, directory);
    }

    /** Runs JMeter on {@code schedule}, each answer checked as the settings say, writing into {@code directory}, and reads what it recorded. */
    public JMeterResults run(Schedule schedule, BenchmarkSettings settings, RunDirectory directory) {
        return run(schedule, settings, directory, settings.bodyCheck());
    }

    /** The same, each answer under load checked as {@code bodyCheck} says. */
    public JMeterResults run(Schedule schedule, BenchmarkSettings settings, RunDirectory directory, BodyCheck bodyCheck) {
        Console.info("%s: %s; about %s of measured load".formatted(directory.root().getFileName(),
                condition.targets().stream().map(Target::id).collect(Collectors.joining(",")), Format.duration(schedule.plannedSeconds())));
        Map<String, Integer> ports = modules.stream().collect(Collectors.toMap(module -> module.target().id(), RunningModule::port));
        Path plan = new PlanWriter(checkedInPlans, cpu.port()).write(schedule, settings, ports::get, directory, condition.expectedPalette(), bodyCheck);
        Timeline.timed("JMeter", () -> jmeter.run(plan, directory.results(), directory.file("jmeter.log"), processes, placement, cpu::jmeterStarted));
        return JMeterResults.read(directory.results());
    }

    /**
     * Runs {@code schedule} like {@link #run(Schedule, BenchmarkSettings, RunDirectory)}, telling {@code starting} the row of each
     * profiled load right before that load starts (the plan calls the harness then, see {@link PlanWriter}).
     */
    JMeterResults runProfiled(Schedule schedule, BenchmarkSettings settings, RunDirectory directory, Consumer<String> starting) {
        cpu.onProfiledLoad(starting);
        try {
            return run(schedule, settings, directory);
        }
        finally {
            cpu.onProfiledLoad(null);
        }
    }

    public Condition condition() {
        return condition;
    }

    public DataStores stores() {
        return stores;
    }

    public List<RunningModule> modules() {
        return modules;
    }

    public Verification verification() {
        return verification;
    }

    public List<SteadyState.Warmup> warmups() {
        return warmups;
    }

    /**
     * How stale the rows that answer from a local copy get, with no other load: after the measured runs, because the
     * writes it makes can leave a row known to stay stale with a color that is not the canonical one for good, and every
     * answer of a load after it would then fail (docs/measuring.md#what-one-run-does).
     */
    public List<Staleness.Result> measureStaleness() {
        return Timeline.timed("staleness", () -> !condition.otherPalette() ? Staleness.measure(modules, stores.redisUrl())
                : List.<Staleness.Result>of());
    }

    /**
     * The heap each row's JVM keeps alive after a full collection, in bytes ({@code null} where it could not be read), taken
     * with no load on it: what a pattern that keeps a copy holds shows against a row that keeps none ({@link LiveHeap}).
     */
    public java.util.Map<String, Long> liveHeap() {
        java.util.Map<String, Long> heap = new java.util.LinkedHashMap<>();
        modules.forEach(module -> heap.put(module.target().id(), LiveHeap.afterFullGc(module, condition.moduleJavaHome())));
        return heap;
    }

    @Override
    public void close() {
        stores.keepDatabaseLog(logs);
        Timeline.timed("stopping", processes::close);
        Console.info(condition.name() + ": modules, Redis and JMeter stopped");
    }
}
