package dev.colorbench.benchmark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import dev.colorbench.core.ColorJson;

/**
 * The steps of {@code ./mvnw -Pbenchmark verify} that run inside Maven (exec:java), one per call:
 * {@code prepare} (settings, schedule, plan), {@code await} (the supervisor is ready),
 * {@code stop} (the supervisor and every module are gone, ports free), {@code report} and
 * {@code check} (errors and empty runs fail the build). The supervisor runs in its own JVM.
 *
 * <p>Arguments: the step, the benchmark module's directory, then step-specific ones. Public only
 * because exec:java must be able to call it.
 */
public final class Benchmark {

    private Benchmark() {
    }

    public static void main(String[] args) {
        RunFiles files = new RunFiles(Path.of(args[1]));
        switch (args[0]) {
            case "prepare" -> prepare(files, Path.of(args[2]), args[3]);
            case "await" -> awaitReady(files);
            case "stop" -> stop(files);
            case "report" -> new BenchmarkReport(files).write();
            case "check" -> BenchmarkReport.check(files);
            default -> throw new IllegalArgumentException("Unknown step " + args[0]);
        }
    }

    /** Resolves the settings, checks the jars and ports, and writes the run's plan and schedule. */
    static void prepare(RunFiles files, Path repositoryRoot, String version) {
        BenchmarkSettings settings = BenchmarkSettings.from(System.getProperties(), System.getenv());
        deleteRecursively(files.benchmark());
        deleteRecursively(files.jmeterResults());
        for (PatternModule module : settings.modules()) {
            Path jar = repositoryRoot.resolve("modules/" + module.id() + "/target/" + module.id() + "-" + version + ".jar");
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException("No jar for module " + module.id() + " at " + jar
                        + ": build the modules first (./mvnw -Pbenchmark verify from the repository root does)");
            }
            copy(jar, files.moduleJar(module));
            int port = settings.port(module);
            if (isListening(port)) {
                throw new IllegalStateException("Port " + port + " for module " + module.id() + " is already in use"
                        + " (a module left running? see ss -ltnp); stop it or move every port with -Dbenchmark.basePort=");
            }
        }
        List<ScheduledRun> schedule = ScheduledRun.scheduleOf(settings);
        try {
            Files.createDirectories(files.state());
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        settings.store(files.settings());
        Json.write(files.schedule(), schedule);
        RunFiles.write(files.palette(), ColorJson.palette());
        Path templates = files.moduleDirectory().resolve("src/test/jmeter");
        RunFiles.write(files.runPlan(), new PlanWriter(templates).runPlan(settings, schedule, files.palette()));
        long loadSeconds = ScheduledRun.totalSeconds(schedule);
        Supervisor.log("%s run: %s; %d repetition(s), %d threads, %d s throughput + %d s latency at %d req/s per module and repetition, %d s warm-up"
                .formatted(settings.quick() ? "quick" : "full", PatternModule.ids(settings.modules()), settings.repetitions(),
                        settings.threads(), settings.durationSeconds(), settings.latencyDurationSeconds(), settings.rate(),
                        settings.warmupSeconds()));
        Supervisor.log("%d thread groups, about %dm%02ds of load; Redis: %s".formatted(schedule.size(), loadSeconds / 60, loadSeconds % 60,
                settings.embeddedRedis() ? "embedded" : "REDIS_URL " + Supervisor.redacted(settings.redisUrl())));
    }

    /** Blocks until the supervisor has verified every module, or fails with its reason. */
    static void awaitReady(RunFiles files) {
        BenchmarkSettings settings = BenchmarkSettings.load(files.settings());
        long deadline = System.nanoTime() + Duration.ofSeconds(settings.healthTimeoutSeconds() + 60L).toNanos();
        while (!Files.exists(files.ready())) {
            if (Files.exists(files.failed())) {
                throw new IllegalStateException(read(files.failed()));
            }
            Optional<ProcessHandle> supervisor = supervisor(files);
            if (System.nanoTime() > deadline || (Files.exists(files.supervisorPid()) && supervisor.isEmpty())) {
                sleep(500); // it may have written its reason just now
                throw new IllegalStateException(Files.exists(files.failed()) ? read(files.failed())
                        : "The benchmark supervisor did not get the modules ready; see " + files.logs());
            }
            sleep(200);
        }
    }

    /** Asks the supervisor to stop everything, waits for it, and checks that no module port is still bound. */
    static void stop(RunFiles files) {
        BenchmarkSettings settings = BenchmarkSettings.load(files.settings());
        RunFiles.write(files.stopRequest(), "stop");
        supervisor(files).ifPresent(supervisor -> {
            try {
                supervisor.onExit().get(45, java.util.concurrent.TimeUnit.SECONDS);
            }
            catch (Exception ex) {
                Supervisor.log("the supervisor did not stop in time; killing it and its children");
                supervisor.descendants().forEach(ProcessHandle::destroyForcibly);
                supervisor.destroyForcibly();
            }
        });
        List<String> bound = settings.modules().stream().filter(module -> isListening(settings.port(module)))
                .map(module -> module.id() + " (" + settings.port(module) + ")").toList();
        if (!bound.isEmpty()) {
            throw new IllegalStateException("Ports still bound after stopping the modules: " + bound);
        }
        Supervisor.log("modules and Redis stopped, ports free");
    }

    private static void copy(Path from, Path to) {
        try {
            Files.createDirectories(to.getParent());
            Files.copy(from, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot copy " + from, ex);
        }
    }

    private static Optional<ProcessHandle> supervisor(RunFiles files) {
        if (!Files.exists(files.supervisorPid())) {
            return Optional.empty();
        }
        return ProcessHandle.of(Long.parseLong(read(files.supervisorPid()).trim())).filter(ProcessHandle::isAlive);
    }

    static boolean isListening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(BenchmarkSettings.HOST, port), 300);
            return true;
        }
        catch (IOException ex) {
            return false;
        }
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    static void deleteRecursively(Path path) {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(path)) {
            for (Path each : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(each);
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot clean " + path, ex);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }
}
