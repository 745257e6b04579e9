package dev.colorbench.benchmark.scenario;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Console;
import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.RunDirectory;
import dev.colorbench.benchmark.modules.Store;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.report.Section;
import dev.colorbench.testkit.statistics.Interval;
import dev.colorbench.benchmark.results.JMeterResults;
import dev.colorbench.testkit.statistics.Statistics;
import dev.colorbench.benchmark.run.Condition;
import dev.colorbench.benchmark.run.Jdk;

/**
 * {@code variants}: the same modules with other settings, no new code. Every chosen module's declared variants
 * ({@code colorbench.variants} in its pom: the stock settings beside the tuned ones, a lever of the floor) run beside
 * it, as they do not in the headline. Every chosen untuned module whose
 * jar carries Jedis (cacheable-loop and template-mget: the loop and the MGET pattern) also runs on
 * Jedis with a pool ({@code spring.data.redis.client-type=jedis}); every MVC module also runs on
 * virtual threads ({@code spring.threads.virtual.enabled}) when the modules' JDK is 21 or newer
 * ({@code -Dbenchmark.javaHome}). Each variant is a row beside its module, in the same rounds and forks, and its CPU per
 * request is set against its module's by the headline's paired rule.
 */
final class Variants implements Scenario {

    static final Map<String, String> JEDIS = Map.of("spring.data.redis.client-type", "jedis",
            "spring.data.redis.jedis.pool.enabled", "true", "spring.data.redis.jedis.pool.max-active", "16",
            "spring.data.redis.jedis.pool.max-idle", "16", "spring.data.redis.jedis.pool.max-wait", "200ms");

    static final Map<String, String> VIRTUAL_THREADS = Map.of("spring.threads.virtual.enabled", "true");

    @Override
    public String name() {
        return "variants";
    }

    @Override
    public Section run(ScenarioContext context) {
        BenchmarkSettings settings = context.settings().forScenario(context.settings().threads());
        int jdk = Jdk.of(context.settings().moduleJavaHome()).feature();
        List<String> notes = new ArrayList<>();
        if (jdk < 21) {
            notes.add(("The modules ran on JDK %d, which has no virtual threads: their rows are left out. Run with "
                    + "-Dbenchmark.javaHome=<a JDK 21 or newer> to include them.").formatted(jdk));
            Console.info("variants: the modules' JDK is " + jdk + "; virtual-thread rows need 21+ (-Dbenchmark.javaHome)");
        }
        List<Target> targets = new ArrayList<>();
        for (Target module : modules(context)) {
            if (!module.id().equals(module.module().id())) {
                continue;
            }
            List<Target> variants = new ArrayList<>();
            module.module().variants().forEach(variant -> variants.add(Target.of(module.module(), variant)));
            // Jedis beside the stock pattern's Lettuce: a tuned module chose its client already (mget-floor reads on Jedis)
            if (module.module().tuning() == null
                    && hasLibrary(module.module().jar(context.measurement().repositoryRoot(), context.measurement().version()), "jedis-")) {
                variants.add(new Target(module.id() + "+jedis", module.module(), JEDIS));
            }
            if (jdk >= 21 && module.module().stack().equals("MVC")) {
                variants.add(new Target(module.id() + "+virtual-threads", module.module(), VIRTUAL_THREADS));
            }
            if (!variants.isEmpty()) {
                targets.add(module);
                targets.addAll(variants);
            }
        }
        if (targets.isEmpty()) {
            throw new IllegalStateException("No chosen module has a variant: one declared in its pom, Jedis (cacheable-loop or template-mget), "
                    + "or virtual threads (an MVC module on JDK 21+, -Dbenchmark.javaHome)");
        }
        RunDirectory directory = context.directory().sub(name());
        // every variant and its module share every round, in the headline's forks: each fork starts them all in fresh JVMs
        int forks = context.settings().forks();
        List<JMeterResults> byFork = Scenarios.roundsInForks(context, Condition.plain(name(), settings, targets), directory, settings, true);
        Map<String, RowFigures> rows = new LinkedHashMap<>();
        targets.forEach(target -> rows.put(target.id(), RowFigures.of(target.id(), byFork, settings)));
        return section(settings, jdk, forks, targets, rows, RowFigures.cpuRounds(targets, byFork, settings), notes);
    }

    /**
     * The scenario's modules and, in a full run that names none, every other module that declares variants: the headline
     * leaves its declared variants to this scenario, so a full run of it measures each of them.
     */
    private static List<Target> modules(ScenarioContext context) {
        List<Target> modules = new ArrayList<>(context.modules());
        if (context.settings().modules().isEmpty() && !context.settings().quick()) {
            context.catalog().modules().stream().filter(module -> !module.variants().isEmpty())
                    .filter(module -> modules.stream().noneMatch(chosen -> chosen.module().id().equals(module.id())))
                    .forEach(module -> modules.add(context.catalog().targets(List.of(module.id())).get(0)));
        }
        return modules;
    }

    private Section section(BenchmarkSettings settings, int jdk, int forks, List<Target> targets, Map<String, RowFigures> rows,
            Statistics.Rounds cpu, List<String> notes) {
        List<List<String>> table = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Map<String, List<Double>> series = new LinkedHashMap<>();
        List<String> labels = new ArrayList<>();
        for (Target target : targets) {
            RowFigures figures = rows.get(target.id());
            String settingsText = target.properties().isEmpty()
                    ? "as it is: " + (target.module().tuning() != null ? target.module().tuning()
                            : "platform threads" + (target.module().store() == Store.REDIS ? ", Lettuce, one shared connection" : ""))
                    : target.properties().equals(JEDIS) ? "Jedis, a pool of 16 connections"
                    : target.properties().equals(VIRTUAL_THREADS) ? "virtual threads" : declared(target);
            String cpuVsBase = target.properties().isEmpty() ? "" : RowFigures.against(cpu, target.id(), target.module().id());
            Interval figure = cpu.figure(target.id());
            table.add(List.of(target.id(), settingsText, RowFigures.interval(figure), cpuVsBase,
                    RowFigures.spread(figures.tps()) + figures.failedIfAny("; "),
                    figures.serverMicros() == null ? "missing" : Format.grouped(figures.serverMicros().median()),
                    figures.latency().p50Ms() + " / " + figures.latency().p99Ms()));
            labels.add(target.id());
            series.computeIfAbsent("CPU µs / request", key -> new ArrayList<>()).add(figure == null ? null : figure.estimate());
            problems.addAll(figures.faults(name(), "closed model"));
        }
        notes = new ArrayList<>(notes);
        notes.add(("Closed model, %d client threads, %d s, %d round(s) in each of %d fork(s), every row in every round in an order of its "
                + "own; each fork starts them all in fresh JVMs. CPU per request: the module's JVM and its store, counted from outside "
                + "both, with its 95 %% interval as the headline's. 'CPU x as it is': a variant's CPU per request over its module's as it "
                + "is, taken within each round, with its interval; level where that interval holds 1, as the headline ranks rows (one "
                + "fork cannot show how JVMs differ, so it calls nothing apart). TPS: median and range of the rounds. Latency: one "
                + "percentile over all the rounds' samples. The modules ran on JDK %d. Jedis is pooled (16 connections, 200 ms wait); "
                + "Lettuce shares one connection.").formatted(settings.threads(), settings.scenarioDurationSeconds(), settings.scenarioRepetitions(),
                        forks, jdk));
        return new Section(name(), "Client library and threads",
                "The same modules with other settings: each module's declared variants (the stock settings beside the tuned ones, the "
                        + "floor's levers), Jedis instead of Lettuce for the loop and the MGET pattern, virtual threads for the MVC modules.",
                List.of("row", "settings", "CPU µs / request, module + store (95 % interval)", "CPU x as it is", "TPS median (min-max)",
                        "server µs / request", "p50 / p99 ms"), table,
                List.of(Charts.bars("variants-cpu", "CPU per request of each module and its variants", labels, series, "CPU µs / request", false)),
                notes, rows, problems);
    }

    /** A declared variant's settings, as its pom gives them ({@code colorbench.variants}), stock ones marked. */
    private static String declared(Target target) {
        String variant = target.id().substring(target.module().id().length() + 1);
        boolean stock = target.module().variants().stream().anyMatch(each -> each.name().equals(variant) && each.stock());
        return (stock ? "stock: " : "") + String.join(" ", target.properties().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(setting -> setting.getKey() + "=" + setting.getValue()).toList());
    }

    private static boolean hasLibrary(Path jar, String prefix) {
        try (JarFile file = new JarFile(jar.toFile())) {
            return file.stream().anyMatch(entry -> entry.getName().startsWith("BOOT-INF/lib/" + prefix));
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot read " + jar, ex);
        }
    }
}
