package dev.colorbench.benchmark.scenario;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.RunDirectory;
import dev.colorbench.benchmark.Workload;
import dev.colorbench.benchmark.modules.ModuleCatalog;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.report.Section;
import dev.colorbench.benchmark.results.JMeterResults;
import dev.colorbench.benchmark.run.Condition;
import dev.colorbench.benchmark.run.Lab;
import dev.colorbench.benchmark.run.SteadyState;

/** Every scenario, in the order {@code all} runs them. */
public final class Scenarios {

    /** The name of the headline comparison, which is not a scenario but is chosen the same way. */
    public static final String HEADLINE = "headline";

    private static final List<Scenario> ALL = List.of(new Distance(), new Keys(), new Values(), new Concurrency(), new Variants(), new Copies(), new Outage(), new Cluster(), new Writes(), new Servers());

    private Scenarios() {
    }

    /** The scenarios {@code benchmark.scenario} names ({@code all}: every one), checking that every name is known. */
    public static List<Scenario> chosen(List<String> names) {
        List<String> known = ALL.stream().map(Scenario::name).toList();
        for (String name : names) {
            if (!name.equals(HEADLINE) && !name.equals("all") && !name.equals(Workload.SCENARIO) && !known.contains(name)) {
                throw new IllegalArgumentException("Unknown scenario '" + name + "' in benchmark.scenario; known: headline, "
                        + String.join(", ", known) + ", " + Workload.SCENARIO + ", all");
            }
        }
        if (names.contains(Workload.SCENARIO) && (names.contains(HEADLINE) || names.contains("all"))) {
            throw new IllegalArgumentException("benchmark.scenario=" + String.join(",", names) + ": the workload run is the headline under your "
                    + "workload, so it replaces the headline; run it without headline or all (docs/workload.md)");
        }
        return ALL.stream().filter(scenario -> names.contains("all") || names.contains(scenario.name())).toList();
    }

    /**
     * The copies the {@code copies} scenario would start, when it is among {@code chosen}: checked before the headline runs,
     * as the {@code -Pbenchmark} build does not build them.
     */
    public static List<Target> copies(List<Scenario> chosen, BenchmarkSettings settings, List<Target> targets, ModuleCatalog catalog,
            Path repositoryRoot) {
        if (chosen.stream().noneMatch(scenario -> scenario instanceof Copies)) {
            return List.of();
        }
        return Copies.modules(settings, catalog, ScenarioContext.modules(settings, targets, catalog), repositoryRoot).stream()
                .map(Target::copyOf).toList();
    }

    /**
     * {@code section} with a note of what its rows' warm-ups found: a scenario warms by the headline's rule, and its figures are
     * as warm as the headline's only where its rows settled too. Each start of a row is one warm-up (a scenario may start a
     * row once per condition); the rows that did not settle are named with their condition.
     */
    public static Section withWarmups(Section section, List<SteadyState.Warmup> warmups, BenchmarkSettings settings) {
        if (warmups.isEmpty()) {
            return section;
        }
        long settled = warmups.stream().filter(SteadyState.Warmup::steady).count();
        String rule = "each row warmed as in the headline, until its JIT was quiet and its throughput no longer climbed, or for at most "
                + settings.warmupLimitSeconds() + " s at " + settings.threads() + " clients";
        if (settled == warmups.size()) {
            return section.withNote("Warm-up: every row settled before it was measured (%d warm-ups; %s).".formatted(warmups.size(), rule));
        }
        String unsettled = warmups.stream().filter(warmup -> !warmup.steady()).map(SteadyState.Warmup::target).distinct()
                .collect(java.util.stream.Collectors.joining(", "));
        return section.withNote("Warm-up: %d of %d warm-ups settled before their row was measured (%s). Not settled: %s; their figures may still climb."
                .formatted(settled, warmups.size(), rule, unsettled));
    }

    /** Whether the headline comparison runs: by default, by name, or with {@code all}. */
    public static boolean headline(List<String> names) {
        return names.isEmpty() || names.contains(HEADLINE) || names.contains("all");
    }

    /**
     * Whether the headline runs under the user's workload ({@code benchmark.keys}, {@code benchmark.valueBytes},
     * {@code benchmark.redisRoundTrip}) instead of its own conditions: only by name, never with {@code all}, whose headline is the
     * project's own.
     */
    public static boolean workload(List<String> names) {
        return names.contains(Workload.SCENARIO);
    }

    /**
     * Runs one condition's rows, every row in every round, in the headline's forks ({@code benchmark.forks}): each fork
     * starts them all in fresh JVMs, in a folder of its own when there are several. The answer holds each fork's runs.
     */
    static List<JMeterResults> roundsInForks(ScenarioContext context, Condition condition, RunDirectory directory,
            BenchmarkSettings settings, boolean openModel) {
        return roundsInForks(context, condition, directory, settings, openModel, lab -> {
        });
    }

    /** The same, showing {@code firstLab} the first fork's lab before its load: what it verified, the stores it runs on. */
    static List<JMeterResults> roundsInForks(ScenarioContext context, Condition condition, RunDirectory directory,
            BenchmarkSettings settings, boolean openModel, java.util.function.Consumer<Lab> firstLab) {
        int forks = context.settings().forks();
        List<JMeterResults> byFork = new java.util.ArrayList<>();
        for (int fork = 1; fork <= forks; fork++) {
            RunDirectory forkDirectory = forks == 1 ? directory : directory.sub("fork-" + fork);
            try (Lab lab = context.measurement().open(condition, forkDirectory)) {
                if (fork == 1) {
                    firstLab.accept(lab);
                }
                byFork.add(lab.run(settings, forkDirectory, openModel));
            }
        }
        return byFork;
    }

    /**
     * Runs conditions that each need the modules started afresh (a palette size, a value size) in {@code forks} forks, the even
     * forks in the reverse order (A B C, then C B A), so that a machine that drifts during the scenario moves every condition
     * alike; within a condition the rows share every round, as the headline's do. {@code run} measures one condition in one
     * fork (from 1); the answer holds each condition's runs, fork by fork, in the conditions' order.
     */
    static <T> Map<T, List<JMeterResults>> inForks(List<T> conditions, int forks, BiFunction<T, Integer, JMeterResults> run) {
        Map<T, List<JMeterResults>> byCondition = new LinkedHashMap<>();
        conditions.forEach(condition -> byCondition.put(condition, new java.util.ArrayList<>()));
        for (int fork = 1; fork <= forks; fork++) {
            List<T> order = new java.util.ArrayList<>(conditions);
            if (fork % 2 == 0) {
                java.util.Collections.reverse(order);
            }
            for (T condition : order) {
                byCondition.get(condition).add(run.apply(condition, fork));
            }
        }
        return byCondition;
    }

    /**
     * The conditions of a scenario that runs them one after another in one start of its rows, there and back (A B C, C B A), so
     * that a machine that drifts during the scenario moves every condition alike instead of passing for a condition's effect
     * (docs/measuring.md#rounds-and-intervals). Quick mode, a smoke run, goes there only.
     */
    static <T> List<T> thereAndBack(List<T> conditions, boolean quick) {
        if (quick) {
            return conditions;
        }
        List<T> back = new java.util.ArrayList<>(conditions);
        java.util.Collections.reverse(back);
        List<T> all = new java.util.ArrayList<>(conditions);
        all.addAll(back);
        return all;
    }
}
