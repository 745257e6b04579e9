package dev.colorbench.redis.nearcache;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;

import com.github.benmanes.caffeine.cache.Cache;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The copy's rules, one interleaving at a time, then all of them at once against a model of Redis. */
class LocalCopyTest {

    private static final byte[] OLD = bytes("old");

    private static final byte[] NEW = bytes("new");

    private static final long MAXIMUM_SIZE = 100;

    private final LocalCopy<byte[]> copy = new LocalCopy<>(MAXIMUM_SIZE);

    @Test
    void keepsWhatWasReadWhenNothingChangedMeanwhile() {
        long generation = copy.generation("tomato");

        copy.put("tomato", generation, OLD);

        assertThat(copy.get("tomato")).isSameAs(OLD);
    }

    /** The classic race: read from Redis, invalidated, then put. The put is refused instead of kept for good. */
    @Test
    void refusesWhatWasReadBeforeAnInvalidationHandledBeforeThePut() {
        long generation = copy.generation("tomato");
        copy.invalidate("tomato");

        copy.put("tomato", generation, OLD);

        assertThat(copy.get("tomato")).isNull();
        copy.put("tomato", copy.generation("tomato"), NEW);
        assertThat(copy.get("tomato")).isSameAs(NEW);
    }

    @Test
    void anInvalidationAfterThePutRemovesIt() {
        copy.put("tomato", copy.generation("tomato"), OLD);

        copy.invalidate("tomato");

        assertThat(copy.get("tomato")).isNull();
    }

    @Test
    void anInvalidationOfAnotherColorDoesNotRefuseThisOne() {
        long generation = copy.generation("tomato");
        copy.invalidate("teal");

        copy.put("tomato", generation, OLD);

        assertThat(copy.get("tomato")).isSameAs(OLD);
    }

    @Test
    void aFlushRefusesEveryColorReadBeforeIt() {
        copy.put("teal", copy.generation("teal"), OLD);
        long generation = copy.generation("tomato");

        copy.invalidateAll();
        copy.put("tomato", generation, OLD);

        assertThat(copy.get("teal")).isNull();
        assertThat(copy.get("tomato")).isNull();
        assertThat(copy.size()).isZero();
    }

    @Test
    void aDiscardedCopyIsEmptyAndTakesNothingMore() {
        copy.put("teal", copy.generation("teal"), OLD);
        long changes = copy.changes();

        copy.discard();
        copy.put("tomato", copy.generation("tomato"), NEW);

        assertThat(copy.isLive()).isFalse();
        assertThat(copy.get("teal")).isNull();
        assertThat(copy.get("tomato")).isNull();
        assertThat(copy.changes()).as("what was derived from the copy is retired").isNotEqualTo(changes);
    }

    @Test
    void everyInvalidationMovesTheCountOfChanges() {
        long before = copy.changes();
        copy.invalidate("tomato");
        long afterOne = copy.changes();
        copy.invalidate("a key the copy never held");
        long afterTwo = copy.changes();
        copy.invalidateAll();

        assertThat(List.of(before, afterOne, afterTwo, copy.changes())).doesNotHaveDuplicates();
    }

    /**
     * The race of a derived value, forced rather than hoped for: an invalidation of tomato is held
     * halfway, at the removal (the test holds the lock of tomato's entry, which the removal takes),
     * while a reader takes the count of changes and then reads tomato, as {@link Derived} does. The
     * reader still sees the old tomato; once the invalidation is through, the count must have moved, so
     * that what the reader derived is retired. (Raising the count before the removal let exactly such a
     * value stand until some other key changed.)
     */
    @Test
    void aValueDerivedWhileAnInvalidationIsUnderWayIsRetiredWhenItEnds() throws InterruptedException {
        assertDerivedMidwayIsRetired(copy -> copy.invalidate("tomato"));
    }

    /** The same, for a flush: the removal of every value held halfway, at tomato. */
    @Test
    void aValueDerivedWhileAFlushIsUnderWayIsRetiredWhenItEnds() throws InterruptedException {
        assertDerivedMidwayIsRetired(LocalCopy::invalidateAll);
    }

    private static void assertDerivedMidwayIsRetired(Consumer<LocalCopy<byte[]>> invalidation) throws InterruptedException {
        Cache<String, byte[]> values = LocalCopy.newValues(MAXIMUM_SIZE);
        LocalCopy<byte[]> copy = new LocalCopy<>(values);
        copy.put("tomato", copy.generation("tomato"), OLD);
        CountDownLatch locked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = new Thread(() -> values.asMap().compute("tomato", (key, held) -> {
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
        byte[] read = copy.get("tomato");

        release.countDown();
        invalidator.join();
        holder.join();
        assertThat(read).as("what the reader read while the invalidation was held").isSameAs(OLD);
        assertThat(copy.get("tomato")).isNull();
        assertThat(copy.changes()).as("the count the reader kept its value with, after the invalidation").isNotEqualTo(changes);
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

    /** Keys share generation counters: an invalidation of one refuses a put of another under way, which is read again. */
    @Test
    void anInvalidationOfAKeyOfTheSameStripeRefusesAPutUnderWay() {
        String tomato = "tomato";
        String other = sameStripe(tomato);
        long generation = copy.generation(tomato);
        copy.invalidate(other);

        copy.put(tomato, generation, OLD);

        assertThat(copy.get(tomato)).isNull();
        copy.put(tomato, copy.generation(tomato), NEW);
        assertThat(copy.get(tomato)).isSameAs(NEW);
    }

    @Test
    void holdsAtMostItsMaximumSize() {
        for (int i = 0; i < 3 * MAXIMUM_SIZE; i++) {
            String key = "key" + i;
            copy.put(key, copy.generation(key), bytes(key));
        }

        assertThat(copy.size()).isLessThanOrEqualTo(MAXIMUM_SIZE);
    }

    private static String sameStripe(String key) {
        for (int i = 0; ; i++) {
            String other = "other" + i;
            if (LocalCopy.stripe(other) == LocalCopy.stripe(key)) {
                return other;
            }
        }
    }

    /**
     * Readers that read a value from "Redis" (a version per color), then put it, against a writer that
     * raises a color's version and then invalidates it, as Redis does after a write: once they stop,
     * every color the copy holds is at its latest version. Without the generation check, a reader that
     * read before a write and put after its invalidation leaves an old version for good.
     */
    @Test
    void readersRacingInvalidationsLeaveNoOldVersionBehind() throws InterruptedException {
        List<String> names = List.of("teal", "tomato", "tan", "thistle");
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
            byte[] held = copy.get(names.get(i));
            if (held != null) {
                assertThat(new String(held, StandardCharsets.US_ASCII)).as(names.get(i)).isEqualTo(Long.toString(versions.get(i)));
            }
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
