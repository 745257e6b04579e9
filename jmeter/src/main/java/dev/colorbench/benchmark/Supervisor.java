package dev.colorbench.benchmark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.colorbench.core.EmbeddedRedis;

/**
 * Owns the processes of a benchmark run: one Redis (embedded unless {@code REDIS_URL} names one)
 * and one JVM per module, all started with the same options. Maven starts it asynchronously and
 * destroys it when Maven ends, whatever the outcome; its shutdown hook then stops every child, so
 * a failing build or a Ctrl-C leaves no process and no bound port behind. Between start and stop
 * it verifies every module, tells the build it is ready, and reports JMeter's progress.
 *
 * <p>Argument: the benchmark module's directory. Public only because it is a launcher's main class.
 */
public final class Supervisor {

    private static final Duration HEALTH_POLL = Duration.ofMillis(250);

    /** Sequential requests the Redis cost is averaged over. */
    private static final int COST_SAMPLE = 20;

    private final RunFiles files;

    private final BenchmarkSettings settings;

    private final List<ModuleProcess> modules = new ArrayList<>();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private EmbeddedRedis embeddedRedis;

    private ServerTimingRecorder serverTiming;

    private Supervisor(RunFiles files) {
        this.files = files;
        this.settings = BenchmarkSettings.load(files.settings());
    }

    public static void main(String[] args) {
        Supervisor supervisor = new Supervisor(new RunFiles(Path.of(args[0])));
        Runtime.getRuntime().addShutdownHook(new Thread(supervisor::stopAll, "benchmark-stop"));
        try {
            RunFiles.write(supervisor.files.supervisorPid(), String.valueOf(ProcessHandle.current().pid()));
            supervisor.startAndVerify();
            RunFiles.write(supervisor.files.ready(), "ready");
            supervisor.superviseUntilStopped();
            supervisor.stopAll();
            RunFiles.write(supervisor.files.stopped(), "stopped");
            System.exit(0);
        }
        catch (RuntimeException ex) {
            log("FAILED: " + ex.getMessage());
            RunFiles.write(supervisor.files.failed(), ex.getMessage());
            supervisor.stopAll();
            System.exit(1);
        }
    }

    private void startAndVerify() {
        String redisUrl = startRedis();
        long started = System.nanoTime();
        for (PatternModule module : settings.modules()) {
            modules.add(startModule(module, redisUrl));
        }
        log("started " + modules.size() + " module JVMs (" + settings.jvmArgs() + "), waiting for health, up to "
                + settings.healthTimeoutSeconds() + " s");
        List<Verification.ModuleCheck> checks = new ArrayList<>();
        AnswerVerifier verifier = new AnswerVerifier();
        Map<PatternModule, Double> startupSeconds = new EnumMap<>(PatternModule.class);
        for (ModuleProcess module : modules) {
            awaitHealthy(module, started);
            startupSeconds.put(module.module(), (System.nanoTime() - started) / 1e9);
        }
        // only now, with every module seeded and idle, do Redis's counters belong to one module at a time
        try (RedisCost cost = new RedisCost(redisUrl)) {
            for (ModuleProcess module : modules) {
                double startup = startupSeconds.get(module.module());
                verifier.verify(module.module().id(), module.baseUri());
                RedisCost.PerRequest perRequest = cost.measure(COST_SAMPLE, () -> verifier.verify(module.module().id(), module.baseUri()));
                if (module.module().readsRedis() && perRequest.commandsPerRequest() < 1) {
                    throw new AnswerVerifier.WrongAnswerException(module.module().id(),
                            "it answered without a single Redis command: it no longer reads Redis, its numbers would mean nothing");
                }
                checks.add(new Verification.ModuleCheck(module.module().id(), module.port(), startup, perRequest.commands(),
                        perRequest.commandsPerRequest(), perRequest.roundTrips()));
                log("verified %-22s answer = canonical palette, Redis per request: %s".formatted(module.module().id(),
                        describe(perRequest)));
            }
            Json.write(files.verification(), new Verification(cost.serverVersion(),
                    settings.embeddedRedis() ? "embedded (" + redisUrl + ")" : "REDIS_URL (" + redacted(redisUrl) + ")",
                    System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"), settings.jvmArgs(), checks));
        }
        Map<PatternModule, URI> baseUris = new EnumMap<>(PatternModule.class);
        modules.forEach(module -> baseUris.put(module.module(), module.baseUri()));
        serverTiming = new ServerTimingRecorder(files, baseUris);
        serverTiming.takeBaseline();
    }

    private String startRedis() {
        if (!settings.embeddedRedis()) {
            // a server the project did not start: only read from it (INFO), never flush or scan it
            log("using the Redis in REDIS_URL: " + redacted(settings.redisUrl()));
            return settings.redisUrl();
        }
        embeddedRedis = EmbeddedRedis.start();
        log("started embedded Redis on " + embeddedRedis.url());
        return embeddedRedis.url();
    }

    private ModuleProcess startModule(PatternModule module, String redisUrl) {
        Path jar = files.moduleJar(module);
        int port = settings.port(module);
        List<String> command = new ArrayList<>();
        command.add(RunFiles.javaExecutable());
        command.addAll(settings.jvmArgList());
        command.addAll(List.of("-jar", jar.toString(), "--server.port=" + port, "--server.address=" + BenchmarkSettings.HOST,
                // for this run only: the modules expose health and info by default; the report reads their request timer
                "--management.endpoints.web.exposure.include=health,info,metrics"));
        try {
            Files.createDirectories(files.logs());
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(files.moduleLog(module).toFile());
            builder.environment().put("REDIS_URL", redisUrl);
            return new ModuleProcess(module, port, builder.start(), files.moduleLog(module));
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot start module " + module.id() + " from " + jar, ex);
        }
    }

    private void awaitHealthy(ModuleProcess module, long startedNanos) {
        long deadline = startedNanos + TimeUnit.SECONDS.toNanos(settings.healthTimeoutSeconds());
        URI health = module.baseUri().resolve("/actuator/health");
        while (true) {
            if (!module.process().isAlive()) {
                throw new IllegalStateException("Module " + module.module().id() + " exited with code " + module.process().exitValue()
                        + " before it was healthy; last lines of " + module.log() + ":\n" + tail(module.log()));
            }
            if (isUp(health)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Module " + module.module().id() + " was not healthy at " + health + " after "
                        + settings.healthTimeoutSeconds() + " s (-Dbenchmark.healthTimeout); last lines of " + module.log() + ":\n"
                        + tail(module.log()));
            }
            sleep(HEALTH_POLL);
        }
    }

    private boolean isUp(URI health) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 && response.body().contains("\"UP\"");
        }
        catch (IOException ex) {
            return false;
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + health);
        }
    }

    /** Waits for the build's stop request, printing progress; stops early if Maven or a module dies. */
    private void superviseUntilStopped() {
        Progress progress = new Progress(files, settings);
        ProcessHandle maven = ProcessHandle.current().parent().orElse(null);
        while (!Files.exists(files.stopRequest())) {
            if (maven != null && !maven.isAlive()) {
                log("Maven is gone; stopping the modules");
                return;
            }
            for (ModuleProcess module : modules) {
                if (!module.process().isAlive()) {
                    throw new IllegalStateException("Module " + module.module().id() + " died during the run (exit code "
                            + module.process().exitValue() + "); see " + module.log());
                }
            }
            progress.print();
            serverTiming.poll();
            sleep(Duration.ofMillis(100));
        }
        serverTiming.finish();
    }

    /** Stops every child, politely first; safe to call more than once and from the shutdown hook. */
    private synchronized void stopAll() {
        for (ModuleProcess module : modules) {
            module.process().destroy();
        }
        for (ModuleProcess module : modules) {
            try {
                if (!module.process().waitFor(15, TimeUnit.SECONDS)) {
                    module.process().destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            }
            catch (InterruptedException ex) {
                module.process().destroyForcibly();
            }
        }
        modules.clear();
        if (embeddedRedis != null) {
            embeddedRedis.stop();
            embeddedRedis = null;
        }
    }

    private static String describe(RedisCost.PerRequest perRequest) {
        StringBuilder text = new StringBuilder();
        perRequest.commands().forEach((command, calls) -> text.append(format(calls)).append(' ').append(command.toUpperCase()).append(' '));
        if (text.isEmpty()) {
            text.append("no command ");
        }
        Double trips = perRequest.roundTrips();
        text.append("(").append(trips == null ? "round trips unknown" : format(trips) + (trips == 1 ? " round trip" : " round trips")).append(")");
        return text.toString();
    }

    private static String format(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : "%.1f".formatted(value);
    }

    /** A Redis URL without its password, for logs and the report. */
    static String redacted(String url) {
        return url.replaceAll("//[^@/]*@", "//***@");
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 25), lines.size()));
        }
        catch (IOException | UncheckedIOException ex) {
            return "(no log: " + ex.getMessage() + ")";
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }

    static void log(String message) {
        System.out.println("[benchmark] " + message);
        System.out.flush();
    }

    private record ModuleProcess(PatternModule module, int port, Process process, Path log) {

        URI baseUri() {
            return URI.create("http://" + BenchmarkSettings.HOST + ":" + port);
        }
    }
}
