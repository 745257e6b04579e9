package dev.colorbench.benchmark.run;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import dev.colorbench.benchmark.Console;

/**
 * Where the load generator runs against the servers. {@code shared} (the default): everything on
 * every core, as a laptop run would be. {@code split}: the servers (modules, Redis) on the first
 * half of the cores and JMeter on the other, so that neither takes CPU from the other; with two
 * cores, one each. The run pins itself (Maven's JVM) to the servers' cores, so that every server
 * it starts inherits them, and starts JMeter with {@code taskset} on the others; it unpins itself
 * when the run ends. Needs {@code taskset} (util-linux) for {@code split}.
 */
public final class CpuPlacement implements AutoCloseable {

    private final boolean split;

    private final int cores = Runtime.getRuntime().availableProcessors();

    private CpuPlacement(boolean split) {
        this.split = split;
    }

    /** Pins this JVM as {@code placement} asks: {@code shared} or {@code split}. */
    public static CpuPlacement apply(String placement) {
        if (placement.equals("shared")) {
            return new CpuPlacement(false);
        }
        if (!placement.equals("split")) {
            throw new IllegalArgumentException("benchmark.cpus is shared or split, not '" + placement + "'");
        }
        CpuPlacement split = new CpuPlacement(true);
        if (split.cores < 2) {
            throw new IllegalStateException("benchmark.cpus=split needs at least 2 cores; this machine has " + split.cores);
        }
        split.pinThisJvm(split.serverCpus());
        Console.info("CPU placement: modules and Redis on CPU " + split.serverCpus() + ", JMeter on CPU " + split.loadCpus());
        return split;
    }

    /** What the report says of the placement. */
    public String describe() {
        return split ? "split: modules and Redis on CPU %s, JMeter on CPU %s".formatted(serverCpus(), loadCpus())
                : "shared: JMeter, the modules and Redis on all %d cores".formatted(cores);
    }

    /** The command that starts JMeter, pinned to the load generator's cores when split. */
    List<String> jmeter(List<String> command) {
        if (!split) {
            return command;
        }
        List<String> pinned = new ArrayList<>(List.of("taskset", "-c", loadCpus()));
        pinned.addAll(command);
        return pinned;
    }

    private String serverCpus() {
        return range(0, cores / 2 - 1);
    }

    private String loadCpus() {
        return range(cores / 2, cores - 1);
    }

    private static String range(int from, int to) {
        return from == to ? String.valueOf(from) : from + "-" + to;
    }

    private void pinThisJvm(String cpus) {
        try {
            Process taskset = new ProcessBuilder("taskset", "-a", "-p", "-c", cpus, String.valueOf(ProcessHandle.current().pid()))
                    .redirectErrorStream(true).start();
            String output = new String(taskset.getInputStream().readAllBytes());
            if (taskset.waitFor() != 0) {
                throw new IllegalStateException("taskset could not pin the run to CPU " + cpus + ": " + output);
            }
        }
        catch (IOException ex) {
            throw new IllegalStateException("benchmark.cpus=split needs taskset (util-linux), which could not be run: " + ex.getMessage(), ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }

    @Override
    public void close() {
        if (split) {
            pinThisJvm(range(0, cores - 1));
        }
    }
}
