package com.example.items;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/** The tests' waits: a pause that keeps the interrupt, and a condition awaited within a bound that fails by name. */
final class Waits {

    private Waits() {
    }

    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    static void await(BooleanSupplier condition, Duration within, String what) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("%s within %s", what, within).isLessThan(deadline);
            Thread.sleep(10);
        }
    }
}
