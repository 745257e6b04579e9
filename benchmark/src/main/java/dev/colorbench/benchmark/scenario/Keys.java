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
import dev.colorbench.benchmark.results.JMeterResults;
import dev.colorbench.benchmark.run.Condition;
import dev.colorbench.benchmark.run.Lab;
import dev.colorbench.benchmark.run.Verification;

/**
 * {@code keys}: how each pattern's cost grows with the number of keys one request reads. Each of
 * the scenario's rows is started with a palette of 10, 148, 1,000 and 10,000 colors (beyond the 148 named ones,
 * generated colors of the same shape, see {@code Palette.sized}; quick: 1,000 alone, one start of the
 * modules that still takes a generated palette through seeding and verification), verified
 * against that palette's canonical answer, warmed and measured. The figure to read is the
 * module's own time per request against the number of colors, on log axes: a pattern whose cost
 * is one round trip plus the bytes grows slowly; one that pays a round trip per key grows with N.
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
        Map<Integer, Step> steps = new LinkedHashMap<>();
        for (int size : sizes) {
            RunDirectory step = directory.sub("colors-" + size);
            try (Lab lab = context.measurement().open(Condition.plain(name() + " " + size, settings, targets).withPaletteSize(size), step)) {
                JMeterResults results = lab.run(settings, step, false);
                Map<String, RowFigures> rows = new LinkedHashMap<>();
                targets.forEach(target -> rows.put(target.id(), RowFigures.of(target.id(), results, settings)));
                steps.put(size, new Step(lab.verification(), rows));
            }
        }
        return section(settings, targets, steps);
    }

    /** One palette size: what a request cost each row in Redis, and its figures. */
    record Step(Verification verification, Map<String, RowFigures> rows) {
    }

    private Section section(BenchmarkSettings settings, List<Target> targets, Map<Integer, Step> steps) {
        List<String> header = new ArrayList<>(List.of("module"));
        steps.keySet().forEach(size -> header.add(Format.grouped(size) + " colors: store work per request, TPS, µs / request"));
        List<List<String>> rows = new ArrayList<>();
        Map<String, List<Charts.Point>> micros = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (Target target : targets) {
            List<String> row = new ArrayList<>(List.of(target.id()));
            steps.forEach((size, step) -> {
                RowFigures figures = step.rows().get(target.id());
                String commands = step.verification().of(target.id()).describeWork();
                row.add("%s; %s; %s%s".formatted(commands, RowFigures.spread(figures.tps()),
                        figures.serverMicros() == null ? "missing" : Format.grouped(figures.serverMicros().median()) + " µs",
                        figures.failedIfAny("; ")));
                micros.computeIfAbsent(target.id(), key -> new ArrayList<>()).add(new Charts.Point(size,
                        figures.serverMicros() == null ? null : figures.serverMicros().median()));
                problems.addAll(figures.faults(name(), Format.grouped(size) + " colors"));
            });
            rows.add(row);
        }
        Map<String, Object> data = new LinkedHashMap<>();
        steps.forEach((size, step) -> data.put(String.valueOf(size), Map.of("redis", step.verification().checks(), "rows", step.rows())));
        return new Section(name(), "Number of keys",
                "Each row serving a palette of %s colors: each verified against that palette's canonical answer, warmed, and loaded "
                        .formatted(String.join(", ", steps.keySet().stream().map(Format::grouped).toList()))
                        + "with %d client threads.".formatted(settings.threads()),
                header, rows,
                List.of(Charts.lines("keys-micros", "Time per request in the module against the number of colors (log-log)", micros,
                        "colors per request", true, "µs per request (module-side)", true)),
                List.of(("Each cell: the Redis commands one GET /colors cost (counted before the load), closed-model TPS over %d s, median of "
                        + "%d repetition(s) (range), and the module's own mean time per request. Beyond 148, the colors are generated "
                        + "(names xcaaaa, xcaaab, ...), with the same JSON shape. A failed request is a figure of its cell, with why it failed "
                        + "(a 503: Redis did not answer within the module's command timeout); only a wrong answer fails the run.").formatted(settings.scenarioDurationSeconds(),
                                settings.scenarioRepetitions())),
                data, problems);
    }
}
