package dev.colorbench.benchmark.run;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Console;
import dev.colorbench.benchmark.Format;

/**
 * Brings every row to a steady state before anything is measured: loads it in the closed model
 * (as many threads as the measured runs, no think time) in short windows until the last few
 * windows' throughput agree within a tolerance <em>and</em> the module's JIT has all but stopped
 * compiling in them, or a maximum is reached. A fixed warm-up either wastes minutes or stops while
 * the JIT is still compiling; this one stops when the module says so, and the report shows how long
 * it took, the last windows and the JIT's time in them, so a row that never settled is visible.
 * Throughput alone is not enough: on 2 cores the JIT's two compiler threads compete with the load,
 * throughput climbs in steps with plateaus of several seconds, and template-mget, "steady" after
 * 18 s by throughput alone, then served 1,605, 2,645 and 3,511 requests/s in its three measured
 * runs (16 threads, at {@code 5019293}); under load its JIT compiled about 2 s per second for its
 * first 30 s and went quiet after about 45. A warm-up is in no figure, so a few
 * failed requests in it (a store that stalled for a second on a busy machine) are reported, not
 * fatal; a row that answered none of them stops the run.
 */
public final class SteadyState {

    /**
     * A row's warm-up: how long, whether it settled, the last windows' throughput (requests per
     * second) and the milliseconds the module's JIT spent compiling during them.
     */
    public record Warmup(String target, double seconds, boolean steady, List<Double> lastWindows, double jitMillis, long requests, long errors) {
    }

    /** Clients per row while every row is warmed together. */
    private static final int TOGETHER_THREADS = 2;

    /** How often the JITs are read while every row is warmed together. */
    private static final int TOGETHER_WINDOW_SECONDS = 5;

    /** The most of the last windows' time the JIT may have spent compiling for a row to count as steady. */
    public static final double JIT_QUIET_PERCENT = 2;

    private final BenchmarkSettings settings;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    public SteadyState(BenchmarkSettings settings) {
        this.settings = settings;
    }

    public List<Warmup> warm(List<RunningModule> modules) {
        if (settings.warmupTogetherSeconds() > 0 && modules.size() > 1) {
            warmTogether(modules);
        }
        List<Warmup> warmups = new ArrayList<>();
        for (RunningModule module : modules) {
            Warmup warmup = warm(module);
            Console.info("warmed %-26s %s s, %s: last windows %s requests/s, JIT %s ms in them".formatted(module.target().id(),
                    Format.number(warmup.seconds()), warmup.steady() ? "steady" : "NOT steady",
                    warmup.lastWindows().stream().map(Format::grouped).toList(), Format.grouped(warmup.jitMillis())));
            if (warmup.errors() > 0 && warmup.errors() >= warmup.requests()) {
                throw new IllegalStateException("Module " + module.target().id() + " failed every one of its " + warmup.requests()
                        + " requests while warming up; see " + module.log());
            }
            if (warmup.errors() > 0) {
                Console.info("  %s failed %d of %d warm-up requests (in no figure; the reasons are in %s)".formatted(module.target().id(),
                        warmup.errors(), warmup.requests(), module.log()));
            }
            warmups.add(warmup);
        }
        return warmups;
    }

    /**
     * Loads every row at once, {@link #TOGETHER_THREADS} clients each, until the JITs of all of them have gone quiet or
     * {@code warmupTogetherSeconds} have passed. Their compilers then share the cores with each other instead of taking turns
     * one row after another, each with the cores to itself and a wait on top: the compiling is the same, the waiting is not.
     * What each row then needs before it is measured, its own steady windows, is checked row by row as before.
     */
    private void warmTogether(List<RunningModule> modules) {
        AtomicBoolean running = new AtomicBoolean(true);
        LongAdder requests = new LongAdder();
        LongAdder errors = new LongAdder();
        List<Thread> threads = new ArrayList<>();
        for (RunningModule module : modules) {
            threads.addAll(clients(module, TOGETHER_THREADS, running, requests, errors));
        }
        long start = System.nanoTime();
        Duration window = Duration.ofSeconds(TOGETHER_WINDOW_SECONDS);
        try {
            double compiled = modules.stream().mapToDouble(ModuleMeters::compilationMillis).sum();
            while (System.nanoTime() - start < settings.warmupTogetherSeconds() * 1_000_000_000L) {
                Pause.of(window);
                double now = modules.stream().mapToDouble(ModuleMeters::compilationMillis).sum();
                // every row's JIT quiet: together they compiled for at most the quiet share of one window, per row
                boolean quiet = jitQuiet((now - compiled) / modules.size(), window.toMillis());
                compiled = now;
                if (quiet) {
                    break;
                }
            }
        }
        finally {
            running.set(false);
            threads.forEach(SteadyState::join);
        }
        Console.info("warmed every row together for %s s (%s requests, %s failed, in no figure); then each row to a steady state".formatted(
                Format.number(Math.round((System.nanoTime() - start) / 1e8) / 10.0), Format.grouped(requests.sum()), Format.grouped(errors.sum())));
    }

    private Warmup warm(RunningModule module) {
        LongAdder requests = new LongAdder();
        LongAdder errors = new LongAdder();
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> threads = clients(module, settings.threads(), running, requests, errors);
        try {
            return measureUntilSteady(module, requests, errors);
        }
        finally {
            running.set(false);
            threads.forEach(SteadyState::join);
        }
    }

    private Warmup measureUntilSteady(RunningModule module, LongAdder requests, LongAdder errors) {
        Duration window = Duration.ofSeconds(settings.warmupWindowSeconds());
        int windowsNeeded = settings.warmupWindows();
        long maxWindows = Math.max(windowsNeeded, settings.warmupSeconds() / settings.warmupWindowSeconds());
        long maxWindowsCompiling = Math.max(maxWindows, settings.warmupCompilingSeconds() / settings.warmupWindowSeconds());
        List<Double> windows = new ArrayList<>();
        List<Double> compiled = new ArrayList<>();
        long counted = 0;
        double compiling = ModuleMeters.compilationMillis(module);
        long windowStart = System.nanoTime();
        while (true) {
            Pause.of(window);
            long now = System.nanoTime();
            long total = requests.sum();
            double jit = ModuleMeters.compilationMillis(module);
            windows.add((total - counted) * 1e9 / (now - windowStart));
            compiled.add(jit - compiling);
            counted = total;
            compiling = jit;
            windowStart = now;
            List<Double> last = windows.subList(Math.max(0, windows.size() - windowsNeeded), windows.size());
            double jitMillis = compiled.subList(Math.max(0, compiled.size() - windowsNeeded), compiled.size()).stream().mapToDouble(Double::doubleValue).sum();
            boolean quiet = jitQuiet(jitMillis, last.size() * window.toMillis());
            boolean steady = windows.size() >= windowsNeeded && agree(last, settings.warmupTolerancePercent()) && quiet;
            if (steady || done(windows.size(), quiet, maxWindows, maxWindowsCompiling)) {
                return new Warmup(module.target().id(), windows.size() * (double) settings.warmupWindowSeconds(), steady, List.copyOf(last), jitMillis,
                        total, errors.sum());
            }
        }
    }

    /**
     * Whether a row that has not settled has been warmed long enough: {@code maxWindows} once its JIT is quiet (its
     * throughput may never agree within the tolerance on a machine that drifts more than that), up to
     * {@code maxWindowsCompiling} while the JIT is still compiling, because a row measured while it compiles climbs
     * during its first measured run.
     */
    static boolean done(int windows, boolean jitQuiet, long maxWindows, long maxWindowsCompiling) {
        return windows >= maxWindowsCompiling || windows >= maxWindows && jitQuiet;
    }

    /** Whether the JIT compiled for at most {@link #JIT_QUIET_PERCENT} of {@code millis}. */
    static boolean jitQuiet(double jitMillis, long millis) {
        return jitMillis <= millis * JIT_QUIET_PERCENT / 100;
    }

    /** Whether the lowest of the windows is within {@code tolerancePercent} of the highest. */
    static boolean agree(List<Double> windows, double tolerancePercent) {
        double max = windows.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        double min = windows.stream().mapToDouble(Double::doubleValue).min().orElse(0);
        return max > 0 && (max - min) * 100 / max <= tolerancePercent;
    }

    /** {@code count} closed-model clients of {@code module}'s {@code GET /colors}, started, until {@code running} is false. */
    private List<Thread> clients(RunningModule module, int count, AtomicBoolean running, LongAdder requests, LongAdder errors) {
        HttpRequest request = HttpRequest.newBuilder(module.baseUri().resolve("/colors")).timeout(Duration.ofSeconds(10)).build();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Thread thread = new Thread(() -> {
                while (running.get()) {
                    send(request, requests, errors);
                }
            }, "warm-up " + module.target().id() + " " + i);
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
        return threads;
    }

    private void send(HttpRequest request, LongAdder requests, LongAdder errors) {
        try {
            HttpResponse<Void> response = http.send(request, HttpResponse.BodyHandlers.discarding());
            if (response.statusCode() != 200) {
                errors.increment();
            }
        }
        catch (IOException ex) {
            errors.increment();
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        requests.increment();
    }

    private static void join(Thread thread) {
        try {
            thread.join(15_000);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
