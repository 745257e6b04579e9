package dev.colorbench.benchmark.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.RunDirectory;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.report.Section;
import dev.colorbench.testkit.statistics.Interval;
import dev.colorbench.benchmark.results.JMeterResults;
import dev.colorbench.testkit.statistics.Statistics;
import dev.colorbench.benchmark.run.Condition;
import dev.colorbench.benchmark.run.Lab;
import dev.colorbench.benchmark.run.Verification;

/**
 * {@code keys}: how each pattern's cost grows with the number of keys one request reads. Each of
 * the scenario's rows is started with a palette of 10, 148, 1,000 and 10,000 colors (beyond the 148 named ones,
 * generated colors of the same shape, see {@code Palette.sized}; quick: 1,000 alone, one start of the
 * modules that still takes a generated palette through seeding and verification), verified
 * against that palette's canonical answer, warmed and measured, in the headline's forks and rounds. The figure to read is
 * the CPU one request costs the module and Redis against the number of colors, on log axes: a pattern whose cost is one
 * round trip plus the bytes grows slowly; one that pays a round trip per key grows with N.
 */
final class Keys implements Scenario {

    @Override
    public String name() {
        return "keys";
    }

    @Override
    public Section run(ScenarioContext context) {
        List<Integer> sizes = context.settings().quick() ? List.of(1_000) : List.of(10, 148, 1_000, 10_000);
        List<Target> targets = context.modules();
        BenchmarkSettings settings = context.settings().forScenario(context.settings().threads());
        RunDirectory directory = context.directory().sub(name());
        // A palette size needs the modules started on it, so sizes cannot share a round: they run in the headline's forks, the
        // even ones in the reverse order, and within a size the rows share every round (Scenarios#inForks).
        int forks = context.settings().forks();
        Map<Integer, Verification> verifications = new java.util.HashMap<>();
        Map<Integer, List<JMeterResults>> bySize = Scenarios.inForks(sizes, forks, (size, fork) -> {
            RunDirectory step = directory.sub("colors-" + size + (forks == 1 ? "" : "-fork-" + fork));
            try (Lab lab = context.measurement().open(Condition.plain(name() + " " + size, settings, targets).withPaletteSize(size), step)) {
                JMeterResults results = lab.run(settings, step, false);
                verifications.put(size, lab.verification());
                return results;
            }
        });
        Map<Integer, Step> steps = new LinkedHashMap<>();
        bySize.forEach((size, results) -> {
            Map<String, RowFigures> rows = new LinkedHashMap<>();
            targets.forEach(target -> rows.put(target.id(), RowFigures.of(target.id(), results, settings)));
            steps.put(size, new Step(verifications.get(size), rows, RowFigures.cpuRounds(targets, results, settings)));
        });
        return section(settings, forks, targets, steps);
    }

    /** One palette size: what a request cost each row in Redis, its figures, and its rows' CPU per request round by round. */
    record Step(Verification verification, Map<String, RowFigures> rows, Statistics.Rounds cpu) {
    }

    private Section section(BenchmarkSettings settings, int forks, List<Target> targets, Map<Integer, Step> steps) {
        List<String> header = new ArrayList<>(List.of("module"));
        steps.keySet().forEach(size -> header.add(Format.grouped(size) + " colors: store work per request; CPU µs / request, module + store (95 % interval); TPS"));
        List<List<String>> rows = new ArrayList<>();
        Map<String, List<Charts.Point>> micros = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (Target target : targets) {
            List<String> row = new ArrayList<>(List.of(target.id()));
            steps.forEach((size, step) -> {
                RowFigures figures = step.rows().get(target.id());
                String commands = step.verification().of(target.id()).describeWork();
                Interval cpu = step.cpu().figure(target.id());
                row.add("%s; %s; %s%s".formatted(commands, RowFigures.interval(cpu), RowFigures.spread(figures.tps()), figures.failedIfAny("; ")));
                micros.computeIfAbsent(target.id(), key -> new ArrayList<>()).add(new Charts.Point(size, cpu == null ? null : cpu.estimate()));
                problems.addAll(figures.faults(name(), Format.grouped(size) + " colors"));
            });
            rows.add(row);
        }
        List<String> notes = new ArrayList<>();
        notes.add(("Each cell: the Redis commands one GET /colors cost (counted before the load); the CPU one request cost the module's "
                + "JVM and its store together, counted from outside them, with its 95 %% interval as the headline's, over %d round(s) in "
                + "each of %d fork(s); closed-model TPS with %d client threads over %d s, median and range of the rounds. A size needs "
                + "the modules started on its palette, so the sizes run one after another in each fork, the second fork in the reverse "
                + "order; within a size the rows share every round. Beyond 148, the colors are generated (names xcaaaa, xcaaab, ...), "
                + "with the same JSON shape. A failed request is a figure of its cell, with why it failed (a 503: Redis did not answer "
                + "within the module's command timeout); only a wrong answer fails the run.").formatted(settings.scenarioRepetitions(), forks,
                        settings.threads(), settings.scenarioDurationSeconds()));
        steps.forEach((size, step) -> notes.add("Ranked by CPU per request at %s colors, as the headline ranks: %s."
                .formatted(Format.grouped(size), RowFigures.order(step.cpu()))));
        if (forks < 2) {
            notes.add("One fork cannot show how JVMs differ, so this run ranks no row apart from another.");
        }
        Map<String, Object> data = new LinkedHashMap<>();
        steps.forEach((size, step) -> data.put(String.valueOf(size), Map.of("redis", step.verification().checks(), "rows", step.rows())));
        return new Section(name(), "Number of keys",
                "Each row serving a palette of %s colors: each verified against that palette's canonical answer, warmed, and loaded "
                        .formatted(String.join(", ", steps.keySet().stream().map(Format::grouped).toList()))
                        + "with %d client threads.".formatted(settings.threads()),
                header, rows,
                List.of(Charts.lines("keys-cpu", "CPU per request, module and store, against the number of colors (log-log)", micros,
                        "colors per request", true, "CPU µs per request", true)),
                notes,
                data, problems);
    }
}
