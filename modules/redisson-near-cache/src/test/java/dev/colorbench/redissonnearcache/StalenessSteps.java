package dev.colorbench.redissonnearcache;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.fail;

/** The closing, waiting and timing steps both Redisson staleness tests take, written once. */
final class StalenessSteps {

    private StalenessSteps() {
    }

    /** Runs every step, even after one failed; then throws the first failure, the others suppressed in it. */
    static void closeAll(AutoCloseable... steps) throws Exception {
        Exception first = null;
        for (AutoCloseable step : steps) {
            try {
                step.close();
            }
            catch (Exception ex) {
                if (first == null) {
                    first = ex;
                }
                else {
                    first.addSuppressed(ex);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** Until {@code condition} holds, for at most {@code wait}. */
    static void await(Duration wait, String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("not within %s: %s", wait, what);
            }
            sleep(Duration.ofMillis(5));
        }
    }

    static String elapsedSince(long nanos) {
        return "%d ms".formatted(Duration.ofNanos(System.nanoTime() - nanos).toMillis());
    }

    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
