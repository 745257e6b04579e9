package dev.colorbench.benchmark.run;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.colorbench.benchmark.Console;

/**
 * Owns every process and server a benchmark run starts, and stops them all, newest first, when it
 * is closed: at the end of the run, when a stage fails, and from a shutdown hook when Maven's JVM
 * ends early (Ctrl-C, {@code kill}). Once stopping has begun nothing new may start, so a stage
 * still running in the main thread cannot leave a process behind.
 */
public final class ChildProcesses implements AutoCloseable {

    /** How long a process gets to stop by itself (a Spring Boot module shuts down gracefully) before it is killed. */
    private static final long GRACE_SECONDS = 15;

    private final Deque<Owned> owned = new ArrayDeque<>();

    private final Thread shutdownHook = new Thread(this::stopAll, "benchmark-stop");

    private boolean stopping;

    public ChildProcesses() {
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Starts a process that is stopped with the others. */
    public synchronized Process start(String name, ProcessBuilder builder) throws IOException {
        refuseWhileStopping(name);
        Process process = builder.start();
        owned.push(new Owned(name, process, null));
        return process;
    }

    /** Takes a server started some other way (an embedded Redis), to be closed with the rest. */
    public synchronized <T extends AutoCloseable> T own(String name, T resource) {
        if (stopping) {
            close(new Owned(name, null, resource));
        }
        refuseWhileStopping(name);
        owned.push(new Owned(name, null, resource));
        return resource;
    }

    @Override
    public void close() {
        stopAll();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        }
        catch (IllegalStateException shuttingDown) {
            // the hook is running or has run: nothing left to remove
        }
    }

    private synchronized void stopAll() {
        stopping = true;
        List<Owned> all = List.copyOf(owned);
        owned.clear();
        all.stream().filter(each -> each.process() != null).forEach(each -> each.process().destroy());
        for (Owned each : all) {
            if (each.process() != null) {
                awaitOrKill(each);
            }
            else {
                close(each);
            }
        }
    }

    private static void awaitOrKill(Owned each) {
        try {
            if (!each.process().waitFor(GRACE_SECONDS, TimeUnit.SECONDS)) {
                Console.info(each.name() + " did not stop within " + GRACE_SECONDS + " s; killing it");
                each.process().descendants().forEach(ProcessHandle::destroyForcibly);
                each.process().destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
        catch (InterruptedException ex) {
            each.process().destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static void close(Owned each) {
        try {
            each.resource().close();
        }
        catch (Exception ex) {
            Console.info("could not stop " + each.name() + ": " + ex);
        }
    }

    private void refuseWhileStopping(String name) {
        if (stopping) {
            throw new IllegalStateException("The run is stopping; " + name + " was not started");
        }
    }

    private record Owned(String name, Process process, AutoCloseable resource) {
    }
}
