package dev.colorbench.benchmark.run;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.colorbench.benchmark.Console;
import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.results.Spread;

/**
 * How much this machine itself varies over the length of one measured run: the same fixed CPU work
 * on every core, window after window, with no load on any module. A row's repetitions cannot agree
 * more closely than the machine does; on a shared VM the same work can take a third longer in one
 * window than in another (a 2-core VM this project is measured on: 32 to 40 % between 8 s windows
 * of an idle machine), and no warm-up or schedule on this side removes that. The report puts this
 * figure beside the rows' own ranges so a reader can tell the machine's share from the pattern's.
 *
 * @param windowSeconds how long each window lasted
 * @param workPerWindow units of work done in each window, all cores together
 */
public record MachineSteadiness(int windowSeconds, List<Long> workPerWindow) {

    /** Steps of a xorshift generator per unit of work: about ten microseconds, so a window ends on time. */
    private static final int STEPS_PER_UNIT = 4_096;

    /** Keeps the generators' results observable, so the JIT cannot drop the work. */
    private static volatile long sink;

    public MachineSteadiness {
        workPerWindow = List.copyOf(workPerWindow);
    }

    /**
     * Measures {@code windows} windows of {@code windowSeconds}, one thread per core, after one
     * unrecorded second in which the work is compiled.
     */
    public static MachineSteadiness measure(int windows, int windowSeconds) {
        int cores = Runtime.getRuntime().availableProcessors();
        ExecutorService executor = Executors.newFixedThreadPool(cores);
        try {
            workIn(executor, cores, 1);
            List<Long> work = new ArrayList<>();
            for (int window = 0; window < windows; window++) {
                work.add(workIn(executor, cores, windowSeconds));
            }
            return new MachineSteadiness(windowSeconds, work);
        }
        finally {
            executor.shutdownNow();
        }
    }

    /** The windows of both, one after the other: a reading before a run and one after it. */
    public MachineSteadiness and(MachineSteadiness later) {
        List<Long> work = new ArrayList<>(workPerWindow);
        work.addAll(later.workPerWindow);
        return new MachineSteadiness(windowSeconds, work);
    }

    public Spread spread() {
        return Spread.of(workPerWindow.stream().map(Long::doubleValue).toList());
    }

    /** One sentence for the console and the report. */
    public String describe() {
        Spread spread = spread();
        return "the same CPU work on every core in %d windows of %d s varied by %s %% of its median (%s-%s units)".formatted(
                workPerWindow.size(), windowSeconds, Format.number(spread.rangePercent()), Format.grouped(spread.min()),
                Format.grouped(spread.max()));
    }

    public MachineSteadiness print(String when) {
        Console.info("machine steadiness " + when + ": " + describe());
        return this;
    }

    private static long workIn(ExecutorService executor, int threads, int seconds) {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        List<Future<Long>> counts = new ArrayList<>();
        for (int thread = 0; thread < threads; thread++) {
            long seed = thread * 0x9E3779B97F4A7C15L + 1;
            counts.add(executor.submit(() -> unitsUntil(deadline, seed)));
        }
        long total = 0;
        for (Future<Long> count : counts) {
            try {
                total += count.get();
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while measuring the machine", ex);
            }
            catch (ExecutionException ex) {
                throw new IllegalStateException("Measuring the machine failed", ex.getCause());
            }
        }
        return total;
    }

    private static long unitsUntil(long deadline, long seed) {
        long state = seed;
        long units = 0;
        while (System.nanoTime() < deadline) {
            for (int step = 0; step < STEPS_PER_UNIT; step++) {
                state ^= state << 13;
                state ^= state >>> 7;
                state ^= state << 17;
            }
            units++;
        }
        sink = state;
        return units;
    }
}
