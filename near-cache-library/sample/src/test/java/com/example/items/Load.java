package com.example.items;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

import static com.example.items.Waits.pause;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Another writer writing {@code w1}, {@code w2}, ... every 10 ms, and a reader through the service every millisecond, both until
 * stopped. Each write's reply and each read's start are kept, so that every read can be checked against the writes acknowledged
 * before it began: a read that began after a newer value's write and still shows the older one is stale by that much.
 */
final class Load implements AutoCloseable {

    private final IntConsumer write;

    private final Supplier<String> read;

    private final List<Long> replies = new ArrayList<>(); // write i's reply at index i - 1; the writer's alone until it is joined

    private final List<long[]> reads = new ArrayList<>(); // when a read began, and the write it showed; the reader's alone

    private final AtomicLong failedWrites = new AtomicLong();

    private final AtomicLong failedReads = new AtomicLong();

    /** What ended a thread other than a failed command, if anything: the check fails with it. */
    private final AtomicReference<Throwable> broken = new AtomicReference<>();

    private final Thread writer = new Thread(() -> guarded(this::write), "another writer");

    private final Thread reader = new Thread(() -> guarded(this::read), "reader");

    private volatile boolean running = true;

    /**
     * @param write writes value {@code w<n>} for the {@code n} given, as another application would; a failure is counted, and the
     * same value written again
     * @param read reads the value through the service; a failure is counted, never taken for a stale answer
     */
    Load(IntConsumer write, Supplier<String> read) {
        this.write = write;
        this.read = read;
        writer.start();
        reader.start();
    }

    private void guarded(Runnable work) {
        try {
            work.run();
        }
        catch (Throwable ex) {
            broken.compareAndSet(null, ex);
        }
    }

    private void write() {
        while (running) {
            try {
                write.accept(replies.size() + 1);
                replies.add(System.nanoTime());
            }
            catch (RuntimeException ex) {
                failedWrites.incrementAndGet(); // a master paused for a failover: the same value again
            }
            pause(10);
        }
    }

    private void read() {
        while (running) {
            long began = System.nanoTime();
            try {
                reads.add(new long[] { began, Long.parseLong(read.get().substring(1)) });
            }
            catch (RuntimeException ex) {
                failedReads.incrementAndGet(); // an error, not a stale answer: counted
            }
            pause(1);
        }
    }

    /**
     * Stops both, prints the stalest read, and fails if a read that began more than {@code bound} after a newer value's write gave
     * the older one, if fewer than 100 writes or 200 reads were made, or more than the share {@code failedReadsAllowed} of the
     * reads failed (0: none may).
     */
    void assertNoneStaleBeyond(Duration bound, String what, double failedReadsAllowed) throws InterruptedException {
        stop();
        long stalest = 0;
        List<String> beyond = new ArrayList<>();
        for (long[] read : reads) {
            if (read[1] < replies.size()) {
                long late = read[0] - replies.get((int) read[1]);
                stalest = Math.max(stalest, late);
                if (late > bound.toNanos() && beyond.size() < 5) {
                    beyond.add("w%d read %d ms after w%d was written".formatted(read[1], late / 1_000_000, read[1] + 1));
                }
            }
        }
        System.out.printf("%s, another writer writing every 10 ms: %d writes (%d failed), %d reads (%d failed); the stalest read began %.1f ms"
                + " after a newer value's write (bound %s)%n", what, replies.size(), failedWrites.get(), reads.size(), failedReads.get(),
                stalest / 1e6, bound);
        assertThat(broken.get()).as("the writer and the reader ran to the end").isNull();
        assertThat(replies).as("another writer's writes").hasSizeGreaterThan(100);
        assertThat(reads).as("reads").hasSizeGreaterThan(200);
        assertThat(beyond).as("reads staler than %s", bound).isEmpty();
        assertThat(failedReads.get()).as("reads that failed").isLessThanOrEqualTo((long) (failedReadsAllowed * reads.size()));
    }

    private void stop() throws InterruptedException {
        running = false;
        writer.join();
        reader.join();
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
