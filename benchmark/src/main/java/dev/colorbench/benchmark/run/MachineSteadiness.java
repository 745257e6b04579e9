package dev.colorbench.benchmark.run;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongUnaryOperator;

import dev.colorbench.benchmark.Console;
import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.results.Spread;

/**
 * How much this machine itself varies over the length of one measured run, with no load on any
 * module: the same fixed work on every core, window after window, twice over. Once arithmetic in
 * registers, which only the CPU's own speed moves; once a chain of dependent reads at random places
 * in memory far larger than any cache, which moves with whatever else shares the caches and the
 * memory (on a VM, other tenants). A row's repetitions cannot agree more closely than the machine
 * does; the report puts these figures beside the rows' own ranges so a reader can tell the machine's
 * share from the pattern's.
 *
 * @param windowSeconds how long each window lasted
 * @param arithmeticPerWindow units of arithmetic done in each window, all cores together
 * @param memoryReadsPerWindow units of memory reads done in each window, all cores together
 */
public record MachineSteadiness(int windowSeconds, List<Long> arithmeticPerWindow, List<Long> memoryReadsPerWindow) {

    /** Steps of a xorshift generator per unit of arithmetic: a few microseconds, so a window ends on time. */
    private static final int STEPS_PER_UNIT = 4_096;

    /** Dependent reads per unit of memory work. */
    private static final int READS_PER_UNIT = 256;

    /** 128 MB of longs: four times the largest last-level cache of the machines this runs on, so nearly every read misses it. */
    private static final int MEMORY_LONGS = 16 * 1024 * 1024;

    /** Keeps the work's results observable, so the JIT cannot drop it. */
    private static volatile long sink;

    public MachineSteadiness {
        arithmeticPerWindow = List.copyOf(arithmeticPerWindow);
        memoryReadsPerWindow = List.copyOf(memoryReadsPerWindow);
    }

    /**
     * Measures {@code windows} windows of {@code windowSeconds} of each kind of work, one thread per
     * core, each kind after one unrecorded second in which it is compiled.
     */
    public static MachineSteadiness measure(int windows, int windowSeconds) {
        int cores = Runtime.getRuntime().availableProcessors();
        long[] memory = new long[MEMORY_LONGS];
        long state = 1;
        for (int index = 0; index < memory.length; index++) {
            state = xorshift(state);
            memory[index] = state;
        }
        ExecutorService executor = Executors.newFixedThreadPool(cores);
        try {
            List<Long> arithmetic = windows(executor, cores, windows, windowSeconds, MachineSteadiness::arithmeticUnit);
            List<Long> reads = windows(executor, cores, windows, windowSeconds, seed -> memoryUnit(memory, seed));
            return new MachineSteadiness(windowSeconds, arithmetic, reads);
        }
        finally {
            executor.shutdownNow();
        }
    }

    /** The windows of both, one after the other: a reading before a run and one after it. */
    public MachineSteadiness and(MachineSteadiness later) {
        return new MachineSteadiness(windowSeconds, joined(arithmeticPerWindow, later.arithmeticPerWindow),
                joined(memoryReadsPerWindow, later.memoryReadsPerWindow));
    }

    public Spread arithmetic() {
        return spread(arithmeticPerWindow);
    }

    public Spread memoryReads() {
        return spread(memoryReadsPerWindow);
    }

    /** One sentence for the console and the report; one window has no spread yet, only its work. */
    public String describe() {
        int windows = arithmeticPerWindow.size();
        if (windows == 1) {
            return "one window of %d s: %s units of arithmetic and %s of reads from memory, every core together, to compare with the windows after the rows"
                    .formatted(windowSeconds, Format.grouped(arithmeticPerWindow.get(0)), Format.grouped(memoryReadsPerWindow.get(0)));
        }
        return "the same work on every core in %d windows of %d s varied by %s %% of its median as arithmetic and by %s %% as reads from memory"
                .formatted(windows, windowSeconds, Format.number(arithmetic().rangePercent()),
                        Format.number(memoryReads().rangePercent()));
    }

    public MachineSteadiness print(String when) {
        Console.info("machine steadiness " + when + ": " + describe());
        return this;
    }

    private static List<Long> windows(ExecutorService executor, int threads, int windows, int windowSeconds, LongUnaryOperator unit) {
        workIn(executor, threads, 1, unit);
        List<Long> work = new ArrayList<>();
        for (int window = 0; window < windows; window++) {
            work.add(workIn(executor, threads, windowSeconds, unit));
        }
        return work;
    }

    private static long workIn(ExecutorService executor, int threads, int seconds, LongUnaryOperator unit) {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        List<Future<Long>> counts = new ArrayList<>();
        for (int thread = 0; thread < threads; thread++) {
            long seed = thread * 0x9E3779B97F4A7C15L + 1;
            counts.add(executor.submit(() -> unitsUntil(deadline, seed, unit)));
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

    private static long unitsUntil(long deadline, long seed, LongUnaryOperator unit) {
        long state = seed;
        long units = 0;
        while (System.nanoTime() < deadline) {
            state = unit.applyAsLong(state);
            units++;
        }
        sink = state;
        return units;
    }

    private static long arithmeticUnit(long state) {
        for (int step = 0; step < STEPS_PER_UNIT; step++) {
            state = xorshift(state);
        }
        return state;
    }

    /** Each read's place depends on the value read before it, so the reads cannot overlap: memory latency, not bandwidth. */
    private static long memoryUnit(long[] memory, long state) {
        for (int read = 0; read < READS_PER_UNIT; read++) {
            state = xorshift(state + memory[(int) ((state >>> 1) % memory.length)]);
        }
        return state;
    }

    private static long xorshift(long state) {
        state ^= state << 13;
        state ^= state >>> 7;
        return state ^ (state << 17);
    }

    private static Spread spread(List<Long> work) {
        return Spread.of(work.stream().map(Long::doubleValue).toList());
    }

    private static List<Long> joined(List<Long> first, List<Long> second) {
        List<Long> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }
}
