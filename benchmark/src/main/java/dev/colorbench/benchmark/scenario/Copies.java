package dev.colorbench.benchmark.scenario;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.RunDirectory;
import dev.colorbench.benchmark.modules.ModuleCatalog;
import dev.colorbench.benchmark.modules.PatternModule;
import dev.colorbench.benchmark.modules.Store;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.report.Section;
import dev.colorbench.benchmark.results.JMeterResults;
import dev.colorbench.testkit.statistics.Statistics;
import dev.colorbench.benchmark.run.Condition;

/**
 * {@code copies}: each module's {@code copy/}, the application its README shows and a user takes home, measured beside the
 * module in one run. The benchmark's rows are the modules, which carry color-core's meters and actuator; the copy carries
 * only the pattern. This scenario says, row by row, whether the copy costs what its module's row says, by the headline's
 * method: the module and its copy in rounds, in as many forks as the headline ({@code benchmark.forks}), and the copy's CPU
 * per request over the module's with its interval; level where it holds 1 (docs/scenarios.md#the-copies).
 */
final class Copies implements Scenario {

    @Override
    public String name() {
        return "copies";
    }

    @Override
    public Section run(ScenarioContext context) {
        BenchmarkSettings settings = context.settings().forScenario(context.settings().threads());
        List<Target> targets = new ArrayList<>();
        for (PatternModule module : modules(context.settings(), context.catalog(), context.modules(), context.measurement().repositoryRoot())) {
            targets.add(context.catalog().targets(List.of(module.id())).get(0));
            targets.add(Target.copyOf(module));
        }
        if (targets.isEmpty()) {
            throw new IllegalStateException("No chosen module has a copy/ (benchmark.modules): in-memory is the ceiling and has none");
        }
        RunDirectory directory = context.directory().sub(name());
        int forks = context.settings().forks();
        // each fork starts every module and copy in fresh JVMs, as the headline's forks do; the closed model only: the
        // table compares CPU per request and throughput
        List<JMeterResults> byFork = Scenarios.roundsInForks(context, Condition.plain(name(), settings, targets), directory, settings, false);
        Map<String, RowFigures> rows = new LinkedHashMap<>();
        targets.forEach(target -> rows.put(target.id(), RowFigures.of(target.id(), byFork, settings)));
        return section(settings, forks, targets, rows, RowFigures.cpuRounds(targets, byFork, settings));
    }

    /**
     * The modules whose copy runs: those {@code benchmark.modules} names, or else every module with a {@code copy/}; a quick run
     * takes those of {@code benchmark.scenarioModules} instead, one per stack and store.
     */
    static List<PatternModule> modules(BenchmarkSettings settings, ModuleCatalog catalog, List<Target> scenarioRows, Path repositoryRoot) {
        List<PatternModule> chosen = !settings.modules().isEmpty() || settings.quick()
                ? scenarioRows.stream().map(Target::module).distinct().toList()
                : catalog.modules();
        // a copy migrates its own table: it gets a database of its own on the embedded PostgreSQL, none on the user's
        boolean ownDatabase = settings.databaseUrl() == null;
        return chosen.stream().filter(module -> module.hasCopy(repositoryRoot))
                .filter(module -> ownDatabase || module.store() != Store.POSTGRESQL).toList();
    }

    private Section section(BenchmarkSettings settings, int forks, List<Target> targets, Map<String, RowFigures> rows, Statistics.Rounds cpu) {
        List<List<String>> table = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        Map<String, List<Double>> series = new LinkedHashMap<>();
        for (Target target : targets) {
            problems.addAll(rows.get(target.id()).faults(name(), "closed model"));
            if (target.copy()) {
                continue;
            }
            RowFigures module = rows.get(target.id());
            RowFigures copy = rows.get(Target.copyOf(target.module()).id());
            String copyId = Target.copyOf(target.module()).id();
            table.add(List.of(target.id(), RowFigures.interval(cpu.figure(target.id())), RowFigures.interval(cpu.figure(copyId)), RowFigures.against(cpu, copyId, target.id()),
                    RowFigures.spread(module.tps()) + module.failedIfAny("; "), RowFigures.spread(copy.tps()) + copy.failedIfAny("; ")));
            labels.add(target.id());
            series.computeIfAbsent("module", key -> new ArrayList<>()).add(module.cpuMicros() == null ? null : module.cpuMicros().median());
            series.computeIfAbsent("copy", key -> new ArrayList<>()).add(copy.cpuMicros() == null ? null : copy.cpuMicros().median());
        }
        List<String> notes = List.of(("Closed model, %d client threads, %d s, %d round(s) in each of %d fork(s), the module and its copy in "
                + "every round, in an order of its own; each fork starts both in fresh JVMs. CPU per request: the JVM and its store, counted "
                + "from outside both, with its 95 %% interval as the headline's. Copy against module: the copy's CPU per request over the "
                + "module's, taken within each round, with its interval; level where that interval holds 1, as the headline ranks rows "
                + "(one fork cannot show how JVMs differ, so it calls nothing apart). TPS: median and range of the rounds. The copy is the "
                + "README's application: no color-core, no actuator, no meters; the module is what the headline measures.")
                .formatted(settings.threads(), settings.scenarioDurationSeconds(), settings.scenarioRepetitions(), forks));
        return new Section(name(), "The copies against their modules",
                "Each module's copy/, the application its README shows, measured beside the module: whether a user who copies it pays what "
                        + "the module's row says.",
                List.of("module", "CPU µs / request, module (95 % interval)", "CPU µs / request, copy (95 % interval)", "copy against module",
                        "TPS, module (min-max)", "TPS, copy (min-max)"),
                table, List.of(Charts.bars("copies-cpu", "CPU per request, module and copy", labels, series, "CPU µs / request", false)),
                notes, rows, problems);
    }
}
