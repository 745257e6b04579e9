package dev.colorbench.nearcache;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;

import com.github.benmanes.caffeine.cache.Cache;
import dev.colorbench.core.palette.Palette;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The copy's rules, one interleaving at a time, then all of them at once against a model of Redis. */
class LocalCopyTest {

    private static final byte[] OLD = bytes("old");

    private static final byte[] NEW = bytes("new");

    private final LocalCopy copy = new LocalCopy();

    @Test
    void keepsWhatWasReadWhenNothingChangedMeanwhile() {
        long generation = copy.generation("tomato");

        copy.put("tomato", generation, OLD);

        assertThat(copy.color("tomato")).isSameAs(OLD);
    }

    /** The classic race: read from Redis, invalidated, then put. The put is refused instead of kept for good. */
    @Test
    void refusesWhatWasReadBeforeAnInvalidationHandledBeforeThePut() {
        long generation = copy.generation("tomato");
        copy.invalidate("tomato");

        copy.put("tomato", generation, OLD);

        assertThat(copy.color("tomato")).isNull();
        copy.put("tomato", copy.generation("tomato"), NEW);
        assertThat(copy.color("tomato")).isSameAs(NEW);
    }

    @Test
    void anInvalidationAfterThePutRemovesIt() {
        copy.put("tomato", copy.generation("tomato"), OLD);

        copy.invalidate("tomato");

        assertThat(copy.color("tomato")).isNull();
    }

    @Test
    void anInvalidationOfAnotherColorDoesNotRefuseThisOne() {
        long generation = copy.generation("tomato");
        copy.invalidate("teal");

        copy.put("tomato", generation, OLD);

        assertThat(copy.color("tomato")).isSameAs(OLD);
    }

    @Test
    void aFlushRefusesEveryColorReadBeforeIt() {
        copy.put("teal", copy.generation("teal"), OLD);
        long generation = copy.generation("tomato");

        copy.invalidateAll();
        copy.put("tomato", generation, OLD);

        assertThat(copy.color("teal")).isNull();
        assertThat(copy.color("tomato")).isNull();
        assertThat(copy.size()).isZero();
    }

    @Test
    void aDiscardedCopyIsEmptyAndTakesNothingMore() {
        copy.put("teal", copy.generation("teal"), OLD);

        copy.discard();
        copy.put("tomato", copy.generation("tomato"), NEW);
        copy.keepPalette(copy.changes(), NEW);

        assertThat(copy.isLive()).isFalse();
        assertThat(copy.color("teal")).isNull();
        assertThat(copy.color("tomato")).isNull();
        assertThat(copy.palette()).isNull();
    }

    @Test
    void thePalettesArrayIsServedUntilAnyColorChanges() {
        copy.keepPalette(copy.changes(), OLD);
        assertThat(copy.palette()).isSameAs(OLD);

        copy.invalidate("tomato");

        assertThat(copy.palette()).isNull();
    }

    @Test
    void thePalettesArrayJoinedAcrossAnInvalidationIsNotKept() {
        long changes = copy.changes();
        copy.invalidate("tomato");

        copy.keepPalette(changes, OLD);

        assertThat(copy.palette()).isNull();
    }

    /**
     * The palette's race, forced rather than hoped for: an invalidation of tomato is held halfway,
     * at the removal (the test holds the lock of tomato's entry, which the removal takes), while a
     * reader joins the palette from the copy and keeps it. The reader still sees the old tomato; once
     * the invalidation is through, the array it kept must not be served. (Raising the count of
     * changes before the removal let exactly this array stand until some other color changed.)
     */
    @Test
    void aPaletteJoinedWhileAnInvalidationIsUnderWayIsRetiredWhenItEnds() throws InterruptedException {
        assertPaletteJoinedMidwayIsRetired(copy -> copy.invalidate("tomato"));
    }

    /** The same, for a flush: the removal of every color held halfway, at tomato. */
    @Test
    void aPaletteJoinedWhileAFlushIsUnderWayIsRetiredWhenItEnds() throws InterruptedException {
        assertPaletteJoinedMidwayIsRetired(LocalCopy::invalidateAll);
    }

    private static void assertPaletteJoinedMidwayIsRetired(Consumer<LocalCopy> invalidation) throws InterruptedException {
        Cache<String, byte[]> colors = LocalCopy.newColors();
        LocalCopy copy = new LocalCopy(colors);
        copy.put("tomato", copy.generation("tomato"), OLD);
        CountDownLatch locked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = new Thread(() -> colors.asMap().compute("tomato", (name, held) -> {
            locked.countDown();
            awaitQuietly(release);
            return held;
        }), "holds tomato's entry");
        holder.start();
        locked.await();
        Thread invalidator = new Thread(() -> invalidation.accept(copy), "invalidates");
        invalidator.start();
        awaitBlocked(invalidator);

        long changes = copy.changes();
        byte[] joined = copy.color("tomato");
        copy.keepPalette(changes, joined);

        release.countDown();
        invalidator.join();
        holder.join();
        assertThat(joined).as("what the reader joined while the invalidation was held").isSameAs(OLD);
        assertThat(copy.color("tomato")).isNull();
        assertThat(copy.palette()).as("the array joined from the old tomato, after its invalidation").isNull();
    }

    /** Until {@code thread} waits for a monitor: here, the lock of the entry the test holds. */
    private static void awaitBlocked(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (thread.getState() != Thread.State.BLOCKED) {
            assertThat(System.nanoTime()).as("%s blocked at the entry's lock within 5 s (now %s)", thread.getName(), thread.getState())
                    .isLessThan(deadline);
            Thread.sleep(1);
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aKeyOutsideThePaletteIsIgnored() {
        copy.keepPalette(copy.changes(), OLD);

        copy.invalidate("notacolor");

        assertThat(copy.palette()).isSameAs(OLD);
    }

    @Test
    void holdsAtMostOneEntryPerPaletteColor() {
        for (int round = 0; round < 3; round++) {
            for (String name : Palette.names()) {
                copy.put(name, copy.generation(name), bytes(name + round));
            }
        }

        assertThat(LocalCopy.MAXIMUM_SIZE).isEqualTo(Palette.names().size());
        assertThat(copy.size()).isEqualTo(Palette.names().size());
    }

    /**
     * Readers that read a value from "Redis" (a version per color), then put it, against a writer that
     * raises a color's version and then invalidates it, as Redis does after a write: once they stop,
     * every color the copy holds is at its latest version. Without the generation check, a reader that
     * read before a write and put after its invalidation leaves an old version for good.
     */
    @Test
    void readersRacingInvalidationsLeaveNoOldVersionBehind() throws InterruptedException {
        List<String> names = Palette.names().subList(0, 4);
        AtomicLongArray versions = new AtomicLongArray(names.size());
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> threads = new ArrayList<>();
        threads.add(new Thread(() -> {
            while (running.get()) {
                int i = ThreadLocalRandom.current().nextInt(names.size());
                versions.incrementAndGet(i);
                copy.invalidate(names.get(i));
            }
        }));
        for (int r = 0; r < 3; r++) {
            threads.add(new Thread(() -> {
                while (running.get()) {
                    int i = ThreadLocalRandom.current().nextInt(names.size());
                    long generation = copy.generation(names.get(i));
                    byte[] read = bytes(Long.toString(versions.get(i)));
                    Thread.yield();
                    copy.put(names.get(i), generation, read);
                }
            }));
        }
        threads.forEach(Thread::start);
        Thread.sleep(1000);
        running.set(false);
        for (Thread thread : threads) {
            thread.join();
        }

        for (int i = 0; i < names.size(); i++) {
            byte[] held = copy.color(names.get(i));
            if (held != null) {
                assertThat(new String(held, StandardCharsets.US_ASCII)).as(names.get(i)).isEqualTo(Long.toString(versions.get(i)));
            }
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
