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
import dev.colorbench.benchmark.results.Spread;
import dev.colorbench.testkit.statistics.Statistics;
import dev.colorbench.benchmark.run.Condition;
import dev.colorbench.benchmark.run.Lab;
import dev.colorbench.benchmark.run.Verification;

/**
 * {@code values}: how each pattern's cost grows with the size of each stored value. Each of the scenario's rows, and the
 * near cache (whose copy of the palette grows with the values), is started with the 148 colors each padded to 1 KB and to
 * 16 KB ({@code -Dcolorbench.palette.value-bytes}, a {@code padding} field in each color's JSON), beside the colors' own
 * JSON of 59 to 80 bytes (quick: 1 KB alone: a 16 KB palette is 2.4 MB an answer, more than the quick run's small heaps and C1-only JITs serve ten at a time within the modules' 500 ms command time-out), verified byte for byte against that palette's answer, warmed and measured.
 * What to read: the CPU one request costs the module and Redis apart, against the value size. Copying bytes grows with
 * the value in every pattern; what a pattern does per value besides (decoding it into an object, one command each) is
 * what separates them at large values.
 */
final class Values implements Scenario {

    /** The row whose copy of the palette the heap column shows, beside one that keeps none. */
    private static final String NEAR_CACHE = "near-cache";

    private static final String NO_COPY = "template-mget";

    @Override
    public String name() {
        return "values";
    }

    @Override
    public Section run(ScenarioContext context) {
        List<Integer> sizes = context.settings().quick() ? List.of(1_024) : java.util.Arrays.asList(null, 1_024, 16_384);
        List<Target> targets = rows(context);
        BenchmarkSettings settings = context.settings().forScenario(context.settings().threads());
        RunDirectory directory = context.directory().sub(name());
        // A size needs the palette stored again and the modules started on it, so sizes cannot share a round. They run in as
        // many forks as the headline's, the second in the reverse order (A B C, C B A), so that a drift of the machine during
        // the scenario does not pass for the size's effect; within a size the rows share every round.
        int forks = context.settings().forks();
        Map<Integer, Readings> readings = new java.util.HashMap<>();
        Map<Integer, List<JMeterResults>> bySize = Scenarios.inForks(sizes, forks, (size, fork) -> {
            String label = size == null ? "own" : String.valueOf(size);
            RunDirectory step = directory.sub("values-" + label + (forks == 1 ? "" : "-fork-" + fork));
            Condition condition = Condition.plain(name() + " " + label, settings, targets);
            try (Lab lab = context.measurement().open(size == null ? condition : condition.withValueBytes(size), step)) {
                JMeterResults results = lab.run(settings, step, false);
                readings.put(size == null ? -1 : size, new Readings(lab.verification(), lab.liveHeap()));
                return results;
            }
        });
        Map<String, Step> steps = new LinkedHashMap<>();
        for (Integer size : sizes) {
            List<JMeterResults> results = bySize.get(size);
            Map<String, RowFigures> rows = new LinkedHashMap<>();
            targets.forEach(target -> rows.put(target.id(), RowFigures.of(target.id(), results, settings)));
            Readings read = readings.get(size == null ? -1 : size);
            steps.put(size == null ? "own" : String.valueOf(size), new Step(size, read.verification(), rows, read.liveHeap(),
                    RowFigures.cpuRounds(targets, results, settings)));
        }
        return section(settings, forks, targets, steps);
    }

    /** What the last start of the modules on a size read before its load: its Redis work per request, and each row's live heap. */
    private record Readings(Verification verification, Map<String, Long> liveHeap) {
    }

    /** The scenario's rows, with the near cache added when it is not among them: its memory is part of the answer. */
    private static List<Target> rows(ScenarioContext context) {
        List<Target> rows = new ArrayList<>(context.modules());
        if (context.settings().modules().isEmpty() && rows.stream().noneMatch(target -> target.id().equals(NEAR_CACHE))) {
            rows.addAll(context.catalog().targets("benchmark.scenarioModules", List.of(NEAR_CACHE)));
        }
        return rows;
    }

    /** One value size ({@code null}: each color's own JSON): what a request cost each row in Redis, its figures, and its live heap. */
    record Step(Integer valueBytes, Verification verification, Map<String, RowFigures> rows, Map<String, Long> liveHeapBytes,
            Statistics.Rounds cpu) {

        String heading() {
            return valueBytes == null ? "own JSON (59-80 B)" : Format.grouped(valueBytes) + " B";
        }
    }

    private Section section(BenchmarkSettings settings, int forks, List<Target> targets, Map<String, Step> steps) {
        List<String> header = new ArrayList<>(List.of("module"));
        steps.values().forEach(step -> header.add(step.heading() + ": TPS; CPU µs / request, module + store = total (95 % interval); live heap"));
        List<List<String>> rows = new ArrayList<>();
        Map<String, List<Charts.Point>> moduleCpu = new LinkedHashMap<>();
        Map<String, List<Charts.Point>> storeCpu = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (Target target : targets) {
            List<String> row = new ArrayList<>(List.of(target.id()));
            steps.values().forEach(step -> {
                RowFigures figures = step.rows().get(target.id());
                Long heap = step.liveHeapBytes().get(target.id());
                row.add("%s; %s; %s%s".formatted(RowFigures.spread(figures.tps()), cpu(figures, step, target.id()),
                        heap == null ? "missing" : Format.number(Math.round(heap / 1e5) / 10.0) + " MB", figures.failedIfAny("; ")));
                double x = step.valueBytes() == null ? 68 : step.valueBytes();
                moduleCpu.computeIfAbsent(target.id(), key -> new ArrayList<>()).add(new Charts.Point(x,
                        figures.moduleCpuMicros() == null ? null : figures.moduleCpuMicros().median()));
                if (figures.storeCpuMicros() != null && figures.storeCpuMicros().median() > 0) {
                    storeCpu.computeIfAbsent(target.id(), key -> new ArrayList<>()).add(new Charts.Point(x, figures.storeCpuMicros().median()));
                }
                problems.addAll(figures.faults(name(), step.heading()));
            });
            rows.add(row);
        }
        List<String> notes = new ArrayList<>();
        notes.add(("Each cell: closed-model TPS with %d client threads over %d s, median of %d round(s) in each of %d fork(s) (range); the CPU one request cost "
                + "the module's JVM and its store (Redis; PostgreSQL for a jdbc row), counted from outside them: each apart as its median, their total as its "
                + "estimate and 95 %% interval by the headline's method; and the heap the module's JVM kept alive after a full "
                + "collection with no load (jcmd GC.run, then jvm.memory.used). Every row's answer was compared byte for byte with the padded "
                + "palette before the load. Own JSON: the colors as the headline stores them, plotted at 68 B, their mean.").formatted(settings.threads(),
                        settings.scenarioDurationSeconds(), settings.scenarioRepetitions(), forks));
        steps.values().forEach(step -> notes.add("Ranked by CPU per request at %s, as the headline ranks: %s.".formatted(step.heading(), order(step))));
        if (forks < 2) {
            notes.add("One fork cannot show how JVMs differ, so this run ranks no row apart from another.");
        }
        nearCacheMemory(steps).ifPresent(notes::add);
        Map<String, Object> data = new LinkedHashMap<>();
        steps.forEach((label, step) -> data.put(label, Map.of("valueBytes", step.valueBytes() == null ? "own" : step.valueBytes(),
                "redis", step.verification().checks(), "rows", step.rows(), "liveHeapBytes", step.liveHeapBytes())));
        return new Section(name(), "Value size",
                "Each row serving the 148 colors with every stored value padded to %s: each verified byte for byte against that palette, warmed, "
                        .formatted(String.join(", then ", steps.values().stream().map(Step::heading).toList()))
                        + "and loaded with %d client threads.".formatted(settings.threads()),
                header, rows,
                List.of(Charts.lines("values-module-cpu", "Module CPU per request against the value size (log-log)", moduleCpu,
                                "bytes per stored value", true, "µs of the module's CPU per request", true),
                        Charts.lines("values-redis-cpu", "Redis CPU per request against the value size (log-log)", storeCpu,
                                "bytes per stored value", true, "µs of Redis's CPU per request", true)),
                notes, data, problems);
    }

    /**
     * {@code 94 + 0 = 95 (88-103)}: a row's CPU per request at a size, the module's and the store's medians, and their total with its
     * 95 % interval over the forks' rounds, the figure the size's ranking compares.
     */
    static String cpu(RowFigures figures, Step step, String row) {
        return "%s + %s = %s".formatted(median(figures.moduleCpuMicros()), median(figures.storeCpuMicros()), RowFigures.interval(step.cpu().figure(row)));
    }

    private static String median(Spread spread) {
        return spread == null ? "missing" : Format.grouped(spread.median());
    }

    /** The size's rows from cheapest to dearest CPU per request, level where the headline's rule cannot separate them. */
    static String order(Step step) {
        return RowFigures.order(step.cpu());
    }

    /**
     * What the near cache's copy costs in heap at each size, as the difference between its live heap and that of a row
     * that keeps no copy; empty unless both were measured at every size.
     */
    private static java.util.Optional<String> nearCacheMemory(Map<String, Step> steps) {
        List<String> parts = new ArrayList<>();
        for (Step step : steps.values()) {
            Long cache = step.liveHeapBytes().get(NEAR_CACHE);
            Long none = step.liveHeapBytes().get(NO_COPY);
            if (cache == null || none == null) {
                return java.util.Optional.empty();
            }
            parts.add("%s at %s".formatted(Format.number(Math.round((cache - none) / 1e5) / 10.0) + " MB", step.heading()));
        }
        return java.util.Optional.of(("The near cache's live heap beyond %s's, which keeps no copy: %s. Its copy holds each color's JSON and the answer joined from them.")
                .formatted(NO_COPY, String.join(", ", parts)));
    }
}
