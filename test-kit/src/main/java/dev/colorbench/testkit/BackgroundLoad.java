package dev.colorbench.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * Another writer changing keys as fast as it can, and reader threads, until closed: the load under which the staleness
 * tests cut connections and restart Redis. The first failure of any thread fails {@link #close()}. It knows no colors,
 * so that the near-cache library's tests share it with the modules' contract.
 */
public final class BackgroundLoad implements AutoCloseable {

    /** One read: the reader's number and the running count of reads. */
    @FunctionalInterface
    public interface Read {

        void run(int reader, int read);
    }

    private final AtomicBoolean running = new AtomicBoolean(true);

    private final AtomicInteger writes = new AtomicInteger();

    private final AtomicInteger reads = new AtomicInteger();

    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    private final List<Thread> threads = new ArrayList<>();

    /**
     * @param write one write, given the running count of writes
     * @param readers how many reader threads
     * @param read one read
     */
    public BackgroundLoad(IntConsumer write, int readers, Read read) {
        start("writer", () -> write.accept(writes.getAndIncrement()));
        for (int r = 0; r < readers; r++) {
            int reader = r;
            start("reader-" + r, () -> read.run(reader, reads.getAndIncrement()));
        }
    }

    private void start(String name, Runnable step) {
        Thread thread = new Thread(() -> {
            try {
                while (running.get()) {
                    step.run();
                }
            }
            catch (Throwable ex) {
                failure.compareAndSet(null, ex);
            }
        }, "staleness-" + name);
        thread.start();
        threads.add(thread);
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        for (Thread thread : threads) {
            thread.join(10_000);
        }
        if (failure.get() != null) {
            throw new AssertionError("under load", failure.get());
        }
        System.out.printf("Load: %d writes, %d reads%n", writes.get(), reads.get());
    }
}
