package dev.colorbench.benchmark.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Console;
import dev.colorbench.benchmark.RunDirectory;
import dev.colorbench.benchmark.modules.PatternModule;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.testkit.FreePorts;

/**
 * Starts one JVM per row, every one with the same JVM options, each on a free loopback port (or on
 * the port its caller gives it: the stack's README ports) with its metrics endpoint exposed for this
 * run only (the report reads the modules' own request timer), and waits until all of them are
 * healthy. A module that exits or stays unhealthy fails the run with the last lines of its log.
 */
public final class ModuleLauncher {

    private static final Duration HEALTH_POLL = Duration.ofMillis(250);

    private final Condition condition;

    private final BenchmarkSettings settings;

    private final RunDirectory directory;

    private final ChildProcesses processes;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    public ModuleLauncher(Condition condition, RunDirectory directory, ChildProcesses processes) {
        this.condition = condition;
        this.settings = condition.settings();
        this.directory = directory;
        this.processes = processes;
    }

    /** Checks that every jar was built, before anything starts. */
    public static void requireJars(List<Target> targets, Path repositoryRoot, String version) {
        for (Target target : targets) {
            if (target.copy()) {
                if (target.module().copyJar(repositoryRoot) == null) {
                    throw new IllegalStateException("No jar for the copy of " + target.module().id() + " under modules/" + target.module().id()
                            + "/copy/target: build the copies first (./mvnw package -DskipTests, whose default profile builds them)");
                }
                continue;
            }
            Path jar = target.module().jar(repositoryRoot, version);
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException("No jar for module " + target.module().id() + " at " + jar
                        + ": build the modules first (./mvnw -Pbenchmark verify from the repository root does)");
            }
        }
    }

    /**
     * Starts every row, at most one JVM per core at a time: a dozen Spring Boot start-ups at once on
     * two cores take minutes each and can outlast any health timeout, one per core takes seconds.
     * Each module's health timeout counts from its own start.
     */
    public List<RunningModule> start(List<Target> targets, DataStores stores, Path repositoryRoot, String version) {
        // a free port is taken right before its module starts, which leaves another process the least time to take it first
        return start(targets, target -> FreePorts.loopback(), stores, repositoryRoot, version);
    }

    /** The same, each row on the loopback port {@code ports} gives it. */
    public List<RunningModule> start(List<Target> targets, ToIntFunction<Target> ports, DataStores stores, Path repositoryRoot, String version) {
        int atOnce = Math.max(1, Runtime.getRuntime().availableProcessors());
        Console.info("starting %d module JVMs (%s), %d at a time, each healthy within %d s".formatted(targets.size(),
                String.join(" ", settings.jvmArgs()), atOnce, settings.healthTimeoutSeconds()));
        List<RunningModule> modules = new ArrayList<>();
        Deque<Starting> starting = new ArrayDeque<>();
        for (Target target : targets) {
            if (starting.size() == atOnce) {
                awaitHealthy(starting.removeFirst());
            }
            long startedNanos = System.nanoTime();
            RunningModule module = start(target, ports.applyAsInt(target), copyOfJar(target, repositoryRoot, version), stores);
            modules.add(module);
            starting.addLast(new Starting(module, startedNanos));
        }
        while (!starting.isEmpty()) {
            awaitHealthy(starting.removeFirst());
        }
        return modules;
    }

    private record Starting(RunningModule module, long startedNanos) {
    }

    private RunningModule start(Target target, int port, Path jar, DataStores stores) {
        List<String> command = new ArrayList<>();
        command.add(java(condition.moduleJavaHome()).toString());
        command.addAll(settings.jvmArgs());
        if (condition.paletteSize() != null) {
            command.add("-D" + Palette.SIZE_PROPERTY + "=" + condition.paletteSize());
        }
        if (condition.valueBytes() != null) {
            command.add("-D" + Palette.VALUE_BYTES_PROPERTY + "=" + condition.valueBytes());
        }
        command.addAll(List.of("-jar", jar.toString(), "--server.port=" + port, "--server.address=" + BenchmarkSettings.HOST,
                "--management.endpoints.web.exposure.include=health,info,metrics,latency"));
        command.addAll(target.arguments());
        Path log = directory.logs().resolve(target.id() + ".log");
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            // the run decides which rows read a cluster: not a REDIS_CLUSTER_NODES the benchmark itself was started with
            builder.environment().remove(DataStores.CLUSTER_NODES);
            Map<String, String> environment = stores.environment(target);
            builder.environment().putAll(environment);
            if (target.copy()) {
                // a copy reads Spring Boot's own properties, as a user's application does, not color-core's REDIS_URL and
                // DATABASE_URL; in its environment, not on its command line, where a password would show
                builder.environment().put("SPRING_DATA_REDIS_URL", environment.get("REDIS_URL"));
                if (environment.containsKey("DATABASE_URL")) {
                    builder.environment().put("SPRING_DATASOURCE_URL", environment.get("DATABASE_URL"));
                }
            }
            return new RunningModule(target, port, processes.start(target.id(), builder), log);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot start module " + target.id() + " from " + jar, ex);
        }
    }

    private Path copyOfJar(Target target, Path repositoryRoot, String version) {
        PatternModule module = target.module();
        Path copy = directory.jars().resolve(module.id() + (target.copy() ? "-copy" : "") + ".jar");
        try {
            if (!Files.exists(copy)) {
                Files.createDirectories(copy.getParent());
                Path built = target.copy() ? module.copyJar(repositoryRoot) : module.jar(repositoryRoot, version);
                if (built == null) {
                    throw new IllegalStateException("No jar for the copy of " + module.id() + ": build the copies first (./mvnw package -DskipTests)");
                }
                Files.copy(built, copy, StandardCopyOption.REPLACE_EXISTING);
            }
            return copy;
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot copy the jar of " + target.id(), ex);
        }
    }

    private void awaitHealthy(Starting starting) {
        RunningModule module = starting.module();
        long startedNanos = starting.startedNanos();
        // a copy has no actuator: it is up when it answers the palette
        URI health = module.baseUri().resolve(module.target().copy() ? "/colors" : "/actuator/health");
        long deadline = startedNanos + Duration.ofSeconds(settings.healthTimeoutSeconds()).toNanos();
        while (!isUp(health)) {
            if (!module.process().isAlive()) {
                throw new IllegalStateException("Module " + module.target().id() + " exited with code " + module.process().exitValue()
                        + " before it was healthy; last lines of " + module.log() + ":\n" + tail(module.log()));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Module " + module.target().id() + " was not healthy at " + health + " after "
                        + settings.healthTimeoutSeconds() + " s (-Dbenchmark.healthTimeout); last lines of " + module.log() + ":\n"
                        + tail(module.log()));
            }
            Pause.of(HEALTH_POLL);
        }
    }

    private boolean isUp(URI health) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 && (health.getPath().equals("/colors") || response.body().contains("\"UP\""));
        }
        catch (IOException ex) {
            return false;
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + health, ex);
        }
    }

    /** The {@code java} of {@code javaHome}, or of the JDK running the benchmark when it is {@code null}. */
    public static Path java(Path javaHome) {
        return (javaHome == null ? Path.of(System.getProperty("java.home")) : javaHome).resolve("bin").resolve("java");
    }

    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 25), lines.size()));
        }
        catch (IOException | UncheckedIOException ex) {
            return "(no log: " + ex.getMessage() + ")";
        }
    }
}
