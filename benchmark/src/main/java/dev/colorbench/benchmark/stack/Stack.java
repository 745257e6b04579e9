package dev.colorbench.benchmark.stack;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Console;
import dev.colorbench.benchmark.RunDirectory;
import dev.colorbench.benchmark.modules.ModuleCatalog;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.run.ChildProcesses;
import dev.colorbench.benchmark.run.Condition;
import dev.colorbench.benchmark.run.DataStores;
import dev.colorbench.benchmark.run.ModuleLauncher;
import dev.colorbench.benchmark.run.RunningModule;

/**
 * {@code ./mvnw -Pstack verify}: the whole stack on this machine until it is stopped. One Redis and, when a
 * database module is chosen, one PostgreSQL, as the benchmark starts them (embedded, or {@code REDIS_URL} /
 * {@code DATABASE_URL}), then every module (or those {@code benchmark.modules} names) as a JVM of its own with
 * the benchmark's JVM options, each on its README port on the loopback: where the checked-in plans run by hand
 * ({@code ./mvnw jmeter:jmeter}) and curl find them. Once all are healthy it prints where each answers and waits;
 * stopping Maven's JVM (Ctrl-C, {@code kill}) runs the benchmark's shutdown hook, which stops them all.
 *
 * <p>Arguments: the repository root and the project version (the jars' names). Public only because exec:java calls it.
 */
public final class Stack {

    private Stack() {
    }

    public static void main(String[] args) throws InterruptedException {
        Path repositoryRoot = Path.of(args[0]).toAbsolutePath().normalize();
        String version = args[1];
        BenchmarkSettings settings = BenchmarkSettings.from(System.getProperties(), System.getenv());
        List<Target> targets = ModuleSelection.chosen(ModuleCatalog.read(repositoryRoot), settings.modules());
        ModuleLauncher.requireJars(targets, repositoryRoot, version);
        PortCheck.requireFree(targets);
        // after the port check: a stack already running holds the ports, and its jars and logs are in this folder
        RunDirectory directory = RunDirectory.fresh(repositoryRoot.resolve("benchmark/target/stack"));
        Condition condition = Condition.plain("stack", settings, targets);
        try (ChildProcesses processes = new ChildProcesses()) {
            DataStores stores = DataStores.start(condition, processes);
            List<RunningModule> modules = new ModuleLauncher(condition, directory, processes)
                    .start(targets, target -> target.module().port(), stores, repositoryRoot, version);
            Console.info("every module is healthy; their logs are in " + directory.logs());
            System.out.println(block(settings, stores, modules));
            System.out.flush();
            // nothing counts it down: Ctrl-C or kill ends Maven's JVM, whose shutdown hook (ChildProcesses) stops everything
            new CountDownLatch(1).await();
        }
    }

    private static String block(BenchmarkSettings settings, DataStores stores, List<RunningModule> modules) {
        int width = Math.max("PostgreSQL".length(), modules.stream().mapToInt(module -> module.target().id().length()).max().orElse(0));
        String line = "%-" + width + "s  %s";
        List<String> lines = new ArrayList<>();
        lines.add("");
        lines.add(line.formatted("Redis", DataStores.redacted(stores.redisUrl()) + (settings.embeddedRedis() ? " (embedded)" : " (REDIS_URL)")));
        if (stores.databaseUrl() != null) {
            lines.add(line.formatted("PostgreSQL",
                    DataStores.redacted(stores.databaseUrl()) + (settings.databaseUrl() == null ? " (embedded)" : " (DATABASE_URL)")));
        }
        for (RunningModule module : modules) {
            lines.add(line.formatted(module.target().id(), module.baseUri().resolve("/colors")));
        }
        lines.add("Ctrl-C stops everything");
        return String.join(System.lineSeparator(), lines);
    }
}
