package dev.colorbench.benchmark.run;

import java.time.Duration;

/** The one way this stage waits: an interrupt (Ctrl-C) ends the wait and the run. */
final class Pause {

    private Pause() {
    }

    static void of(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }
}
