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
 * windows' throughput agree within a tolerance, or a maximum is reached. A fixed warm-up either
 * wastes minutes or stops while the JIT is still compiling and the collector still sizing its
 * generations; this one stops when the throughput says so, and the report shows how long it took
 * and the last windows, so a row that never settled is visible. A warm-up is in no figure, so a few
 * failed requests in it (a store that stalled for a second on a busy machine) are reported, not
 * fatal; a row that answered none of them stops the run.
 */
public final class SteadyState {

    /** A row's warm-up: how long, whether its last windows agreed, their throughput (requests per second). */
    public record Warmup(String target, double seconds, boolean steady, List<Double> lastWindows, long requests, long errors) {
    }

    private final BenchmarkSettings settings;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    public SteadyState(BenchmarkSettings settings) {
        this.settings = settings;
    }

    public List<Warmup> warm(List<RunningModule> modules) {
        List<Warmup> warmups = new ArrayList<>();
        for (RunningModule module : modules) {
            Warmup warmup = warm(module);
            Console.info("warmed %-26s %s s, %s: last windows %s requests/s".formatted(module.target().id(), Format.number(warmup.seconds()),
                    warmup.steady() ? "steady" : "NOT steady", warmup.lastWindows().stream().map(Format::grouped).toList()));
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

    private Warmup warm(RunningModule module) {
        HttpRequest request = HttpRequest.newBuilder(module.baseUri().resolve("/colors")).timeout(Duration.ofSeconds(10)).build();
        LongAdder requests = new LongAdder();
        LongAdder errors = new LongAdder();
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < settings.threads(); i++) {
            Thread thread = new Thread(() -> {
                while (running.get()) {
                    send(request, requests, errors);
                }
            }, "warm-up " + module.target().id() + " " + i);
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
        try {
            return measureUntilSteady(module.target().id(), requests, errors);
        }
        finally {
            running.set(false);
            threads.forEach(SteadyState::join);
        }
    }

    private Warmup measureUntilSteady(String target, LongAdder requests, LongAdder errors) {
        Duration window = Duration.ofSeconds(settings.warmupWindowSeconds());
        int windowsNeeded = settings.warmupWindows();
        long maxWindows = Math.max(windowsNeeded, settings.warmupSeconds() / settings.warmupWindowSeconds());
        List<Double> windows = new ArrayList<>();
        long counted = 0;
        long windowStart = System.nanoTime();
        while (true) {
            Pause.of(window);
            long now = System.nanoTime();
            long total = requests.sum();
            windows.add((total - counted) * 1e9 / (now - windowStart));
            counted = total;
            windowStart = now;
            List<Double> last = windows.subList(Math.max(0, windows.size() - windowsNeeded), windows.size());
            boolean steady = windows.size() >= windowsNeeded && agree(last, settings.warmupTolerancePercent());
            if (steady || windows.size() >= maxWindows) {
                return new Warmup(target, windows.size() * (double) settings.warmupWindowSeconds(), steady, List.copyOf(last), total, errors.sum());
            }
        }
    }

    /** Whether the lowest of the windows is within {@code tolerancePercent} of the highest. */
    static boolean agree(List<Double> windows, double tolerancePercent) {
        double max = windows.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        double min = windows.stream().mapToDouble(Double::doubleValue).min().orElse(0);
        return max > 0 && (max - min) * 100 / max <= tolerancePercent;
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
