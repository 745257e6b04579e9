package dev.colorbench.benchmark.run;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples each row's module only while that row's own load runs. The plan calls {@link #loadStarting} right before a
 * row's load; the row's window starts once JMeter's ramp is over and stops a little before the load's planned end, so
 * neither another row's load nor idle time is in the row's profile. One thread times every window, in the order the loads
 * come.
 */
final class ProfileWindows implements AutoCloseable {

    /** Waited after the ramp: JMeter starts the load's thread group a moment after the plan's call, and its last threads need a first request. */
    static final long SETTLE_MILLIS = 500;

    /** Left before the load's planned end: asprof takes tens of milliseconds to stop the sampling, more on a busy machine. */
    static final long TAIL_MILLIS = 500;

    /** The shortest window worth a flame graph. */
    static final long LEAST_MILLIS = 500;

    /** When a row's sampling starts and stops, in milliseconds after the plan's call that the row's load is about to start. */
    record Window(long startMillis, long stopMillis) {

        /** The window of a load of {@code loadSeconds} whose threads start over {@code rampupSeconds}. */
        static Window of(int loadSeconds, int rampupSeconds) {
            Window window = new Window(rampupSeconds * 1000L + SETTLE_MILLIS, loadSeconds * 1000L - TAIL_MILLIS);
            if (window.stopMillis - window.startMillis < LEAST_MILLIS) {
                throw new IllegalArgumentException("A load of %d s with a ramp of %d s leaves no window to sample: at least %d s of load"
                        .formatted(loadSeconds, rampupSeconds, loadSeconds(0, rampupSeconds)));
            }
            return window;
        }
    }

    /**
     * The seconds of load a row gets for {@code seconds} asked: as many, or the least that leaves a window of
     * {@value #LEAST_MILLIS} ms after a ramp of {@code rampupSeconds}, so that a quick run's short profiles still work.
     */
    static int loadSeconds(int seconds, int rampupSeconds) {
        long least = rampupSeconds * 1000L + SETTLE_MILLIS + LEAST_MILLIS + TAIL_MILLIS;
        return (int) Math.max(seconds, (least + 999) / 1000);
    }

    /**
     * How a row's sampling went, by the wall clock JMeter's samples use (epoch ms): asked to start at {@code began}, sure to be
     * stopped at {@code ended}. Its profile stays in the row's agent for a dump.
     */
    record Sampled(long began, long ended) {
    }

    private final Map<String, Long> pids;

    private final Window window;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "profile windows");
        thread.setDaemon(true);
        return thread;
    });

    private final Set<String> opened = ConcurrentHashMap.newKeySet();

    /** Rows whose profiler runs, with when it was asked to start; guarded by this. */
    private final Map<String, Long> running = new LinkedHashMap<>();

    private final Map<String, Sampled> sampled = new ConcurrentHashMap<>();

    /** @param pids each row's module JVM, to which async-profiler has attached before */
    ProfileWindows(Map<String, Long> pids, Window window) {
        this.pids = Map.copyOf(pids);
        this.window = window;
    }

    /** The plan's word that {@code row}'s load is about to start: its window is timed from now. A row is sampled once. */
    void loadStarting(String row) {
        Long pid = pids.get(row);
        if (pid == null || !opened.add(row)) {
            return;
        }
        timer.schedule(() -> start(row, pid), window.startMillis(), TimeUnit.MILLISECONDS);
        timer.schedule(() -> stop(row, pid), window.stopMillis(), TimeUnit.MILLISECONDS);
    }

    private synchronized void start(String row, long pid) {
        long began = System.currentTimeMillis();
        if (Profiler.start(pid)) {
            running.put(row, began);
        }
    }

    private synchronized void stop(String row, long pid) {
        Long began = running.remove(row);
        if (began != null && Profiler.stop(pid)) {
            sampled.put(row, new Sampled(began, System.currentTimeMillis()));
        }
    }

    /**
     * Waits for the windows opened to stop (the plan's last load ends after its window), stops any profiler still running
     * (a load cut short), and answers each row's sampling that stopped in its window.
     */
    Map<String, Sampled> finish() {
        timer.shutdown();
        try {
            if (!timer.awaitTermination(window.stopMillis() + 10_000, TimeUnit.MILLISECONDS)) {
                timer.shutdownNow();
            }
        }
        catch (InterruptedException ex) {
            timer.shutdownNow();
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            running.keySet().forEach(row -> Profiler.stop(pids.get(row)));
            running.clear();
        }
        return Map.copyOf(sampled);
    }

    @Override
    public void close() {
        finish();
    }
}
