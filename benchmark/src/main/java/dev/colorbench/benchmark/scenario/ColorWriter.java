package dev.colorbench.benchmark.scenario;

import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

import dev.colorbench.benchmark.modules.Layout;
import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;

/**
 * Another writer at a steady rate: change after change, each to the next palette color in turn, written where every
 * chosen layout keeps it ({@link StoredPalettes#write}), on a thread of its own, until it is closed. A change gives the
 * color another blue of as many digits (so each color's JSON, and the palette's, keeps its length), a different one
 * from the change before, cycling through {@value #SHADES} shades: a right answer is always as long as the palette,
 * and each change can be told from the one before it.
 */
final class ColorWriter implements AutoCloseable {

    private static final int IN_FLIGHT = 64;

    /** The shades a color cycles through, none of them its own. */
    static final int SHADES = 7;

    /** One change as the writer made it: which, and when Redis replied to it (wall clock for the samples, nanos for the delay). */
    record Change(long sequence, int position, int shade, long repliedAtMillis, long repliedAtNanos) {
    }

    private static final List<Color> PALETTE = Palette.all();

    private final StoredPalettes store;

    private final List<Layout> layouts;

    private final int perSecond;

    private final Thread thread;

    /** Per palette position: the sequence of the last change written there, -1 for none. */
    private final AtomicLongArray lastChange = new AtomicLongArray(PALETTE.size());

    private volatile boolean running = true;

    private volatile Change latest;

    private volatile RuntimeException failure;

    /** Changes sent and not answered yet, at most {@value #IN_FLIGHT}: a writer that falls behind waits rather than queueing without end. */
    private final Semaphore inFlight = new Semaphore(IN_FLIGHT);

    private volatile long changes;

    private long startNanos;

    private volatile long endNanos;

    private ColorWriter(StoredPalettes store, List<Layout> layouts, int perSecond) {
        this.store = store;
        this.layouts = layouts.stream().filter(layout -> layout != Layout.NONE).sorted().toList();
        this.perSecond = perSecond;
        for (int i = 0; i < PALETTE.size(); i++) {
            lastChange.set(i, -1);
        }
        this.thread = new Thread(this::writeAtRate, "writer " + perSecond + "/s");
        this.thread.setDaemon(true);
    }

    /** Starts writing {@code perSecond} changes a second into {@code layouts}; 0 writes nothing. */
    static ColorWriter start(StoredPalettes store, List<Layout> layouts, int perSecond) {
        ColorWriter writer = new ColorWriter(store, layouts, perSecond);
        writer.startNanos = System.nanoTime();
        if (perSecond > 0 && !writer.layouts.isEmpty()) {
            writer.thread.start();
        }
        return writer;
    }

    /** The shade of {@code color} numbered {@code shade} (1 to {@link #SHADES}); 0 is the color itself. */
    static Color shade(Color color, int shade) {
        if (shade == 0) {
            return color;
        }
        int low = color.blue() < 10 ? 0 : color.blue() < 100 ? 10 : 100;
        int high = color.blue() < 10 ? 9 : color.blue() < 100 ? 99 : 255;
        // the blues of as many digits nearest to the color's own, taken alternately above and below it
        int found = 0;
        for (int distance = 1; ; distance++) {
            for (int blue : new int[] { color.blue() + distance, color.blue() - distance }) {
                if (blue >= low && blue <= high && ++found == shade) {
                    return new Color(color.name(), "#%02x%02x%02x".formatted(color.red(), color.green(), blue), color.red(), color.green(), blue, color.padding());
                }
            }
        }
    }

    private void writeAtRate() {
        try {
            long interval = 1_000_000_000L / perSecond;
            long sequence = 0;
            while (running) {
                long due = startNanos + sequence * interval;
                long now = System.nanoTime();
                if (now < due) {
                    LockSupport.parkNanos(due - now);
                    continue;
                }
                if (!inFlight.tryAcquire(1, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("Redis did not answer " + IN_FLIGHT + " changes within a second");
                }
                int position = (int) (sequence % PALETTE.size());
                int shade = (int) ((sequence / PALETTE.size()) % SHADES) + 1;
                long change = sequence;
                lastChange.set(position, change);
                store.write(layouts, position, shade(PALETTE.get(position), shade)).whenComplete((replied, error) -> {
                    inFlight.release();
                    if (error != null) {
                        failure = new IllegalStateException("A change was not written", error);
                        running = false;
                        return;
                    }
                    answered(new Change(change, position, shade, System.currentTimeMillis() - (System.nanoTime() - replied) / 1_000_000, replied));
                });
                changes = ++sequence;
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        catch (RuntimeException ex) {
            failure = ex;
        }
        finally {
            endNanos = System.nanoTime();
        }
    }

    /** Replies come back in the order the changes were sent (one connection); {@link #latest} only moves forward. */
    private synchronized void answered(Change change) {
        if (latest == null || latest.sequence() < change.sequence()) {
            latest = change;
        }
    }

    /** The last change Redis replied to, or null before the first. */
    Change latest() {
        return latest;
    }

    /** The name of the color {@code change} changed. */
    static String name(Change change) {
        return PALETTE.get(change.position()).name();
    }

    /**
     * Whether {@code body}, an answer for the color of {@code change}, carries that change or a later one of the same
     * color: the shade it wrote, or, once the color was changed again, the shade written since.
     */
    boolean carries(Change change, String body) {
        Color color = PALETTE.get(change.position());
        if (body.equals(ColorJson.of(shade(color, change.shade())))) {
            return true;
        }
        long last = lastChange.get(change.position());
        if (last <= change.sequence()) {
            return false;
        }
        int lastShade = (int) ((last / PALETTE.size()) % SHADES) + 1;
        return body.equals(ColorJson.of(shade(color, lastShade)));
    }

    /** Changes written per second, from the start to the close. */
    double achievedPerSecond() {
        long end = endNanos == 0 ? System.nanoTime() : endNanos;
        return end > startNanos ? changes * 1e9 / (end - startNanos) : 0;
    }

    long changes() {
        return changes;
    }

    /** Stops writing (the change under way finishes) and fails if a write failed. */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(10_000);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        if (endNanos == 0) {
            endNanos = System.nanoTime();
        }
        try {
            if (!inFlight.tryAcquire(IN_FLIGHT, 5, TimeUnit.SECONDS)) {
                throw new IllegalStateException("Redis did not answer the last changes within 5 s");
            }
            inFlight.release(IN_FLIGHT);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        store.awaitTable();
        if (failure != null) {
            throw new IllegalStateException("Another writer's change failed at " + perSecond + " changes/s", failure);
        }
    }
}
