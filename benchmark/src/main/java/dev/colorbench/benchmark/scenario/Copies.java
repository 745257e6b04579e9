package dev.colorbench.benchmark.scenario;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.RunDirectory;
import dev.colorbench.benchmark.modules.ModuleCatalog;
import dev.colorbench.benchmark.modules.PatternModule;
import dev.colorbench.benchmark.modules.Store;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.report.Section;
import dev.colorbench.benchmark.results.JMeterResults;
import dev.colorbench.benchmark.results.Spread;
import dev.colorbench.benchmark.run.Condition;
import dev.colorbench.benchmark.run.Lab;

/**
 * {@code copies}: each module's {@code copy/}, the application its README shows and a user takes home, measured beside the
 * module in one run. The benchmark's rows are the modules, which carry color-core's meters and actuator; the copy carries
 * only the pattern. This scenario says, row by row, whether the copy costs what its module's row says: level where their CPU
 * per request overlaps over the repetitions, and by how much it differs where it does not (docs/scenarios.md#the-copies).
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
        Map<String, RowFigures> rows = new LinkedHashMap<>();
        try (Lab lab = context.measurement().open(Condition.plain(name(), settings, targets), directory)) {
            // the closed model only: the table compares CPU per request and throughput
            JMeterResults results = lab.run(settings, directory, false);
            targets.forEach(target -> rows.put(target.id(), RowFigures.of(target.id(), results, settings)));
        }
        return section(settings, targets, rows);
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

    private Section section(BenchmarkSettings settings, List<Target> targets, Map<String, RowFigures> rows) {
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
            table.add(List.of(target.id(), RowFigures.spread(module.cpuMicros()), RowFigures.spread(copy.cpuMicros()),
                    verdict(module.cpuMicros(), copy.cpuMicros(), settings.scenarioRepetitions()), RowFigures.spread(module.tps()) + module.failedIfAny("; "),
                    RowFigures.spread(copy.tps()) + copy.failedIfAny("; ")));
            labels.add(target.id());
            series.computeIfAbsent("module", key -> new ArrayList<>()).add(module.cpuMicros() == null ? null : module.cpuMicros().median());
            series.computeIfAbsent("copy", key -> new ArrayList<>()).add(copy.cpuMicros() == null ? null : copy.cpuMicros().median());
        }
        List<String> notes = List.of(("Closed model, %d client threads, %d s, median of %d repetition(s) (range), the module and its copy in one "
                + "run, in rounds of their own order. CPU per request: the JVM and its store, counted from outside both. Level: the two "
                + "ranges overlap; else the copy's median over the module's. The copy is the README's application: no color-core, no "
                + "actuator, no meters; the module is what the headline measures.").formatted(settings.threads(), settings.scenarioDurationSeconds(),
                        settings.scenarioRepetitions()));
        return new Section(name(), "The copies against their modules",
                "Each module's copy/, the application its README shows, measured beside the module: whether a user who copies it pays what "
                        + "the module's row says.",
                List.of("module", "CPU µs / request, module (min-max)", "CPU µs / request, copy (min-max)", "copy against module",
                        "TPS, module (min-max)", "TPS, copy (min-max)"),
                table, List.of(Charts.bars("copies-cpu", "CPU per request, module and copy", labels, series, "CPU µs / request", false)),
                notes, rows, problems);
    }

    /**
     * "level" where the repetitions' ranges overlap, else the copy's median CPU over the module's; "missing" without both. One
     * repetition has no range: its ratio is given as one run's, never called level or not.
     */
    static String verdict(Spread module, Spread copy, int repetitions) {
        if (module == null || copy == null || module.median() <= 0) {
            return "missing";
        }
        String ratio = "x " + Format.ratio(copy.median() / module.median());
        if (repetitions < 2) {
            return ratio + " (one repetition: no range)";
        }
        return copy.min() <= module.max() && module.min() <= copy.max() ? "level" : ratio;
    }
}
