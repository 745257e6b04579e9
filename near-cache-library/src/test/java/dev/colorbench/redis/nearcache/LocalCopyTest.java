package dev.colorbench.redis.nearcache;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The copy's rules, one interleaving at a time, then all of them at once against a model of Redis. */
class LocalCopyTest {

    private static final byte[] OLD = bytes("old");

    private static final byte[] NEW = bytes("new");

    /** Far above what any test puts: the bound is tested on its own. */
    private static final long MAXIMUM_BYTES = 1 << 20;

    private static final long NEVER = Long.MAX_VALUE;

    private final LocalCopy copy = new LocalCopy(MAXIMUM_BYTES, new LocalCopy.Counters());

    @Test
    void keepsWhatWasReadWhenNothingChangedMeanwhile() {
        long generation = copy.generation(key("tomato"));

        put(copy, "tomato", generation, OLD);

        assertThat(copy.get(key("tomato"))).isSameAs(OLD);
    }

    /** The classic race: read from Redis, invalidated, then put. The put is refused instead of kept for good. */
    @Test
    void refusesWhatWasReadBeforeAnInvalidationHandledBeforeThePut() {
        long generation = copy.generation(key("tomato"));
        copy.invalidate(key("tomato"));

        put(copy, "tomato", generation, OLD);

        assertThat(copy.get(key("tomato"))).isNull();
        put(copy, "tomato", copy.generation(key("tomato")), NEW);
        assertThat(copy.get(key("tomato"))).isSameAs(NEW);
    }

    @Test
    void anInvalidationAfterThePutRemovesIt() {
        put(copy, "tomato", copy.generation(key("tomato")), OLD);

        copy.invalidate(key("tomato"));

        assertThat(copy.get(key("tomato"))).isNull();
    }

    @Test
    void anInvalidationOfAnotherColorDoesNotRefuseThisOne() {
        long generation = copy.generation(key("tomato"));
        copy.invalidate(key("teal"));

        put(copy, "tomato", generation, OLD);

        assertThat(copy.get(key("tomato"))).isSameAs(OLD);
    }

    @Test
    void aDiscardedCopyAnswersNothingAndTakesNothingMore() {
        put(copy, "teal", copy.generation(key("teal")), OLD);

        copy.discard();
        put(copy, "tomato", copy.generation(key("tomato")), NEW);

        assertThat(copy.isLive()).isFalse();
        assertThat(copy.get(key("teal"))).as("a reader still holding the discarded copy").isNull();
        assertThat(copy.get(key("tomato"))).isNull();
    }

    @Test
    void anInvalidationMovesTheStampOfItsKeysOnly() {
        int[] tomato = LocalCopy.stripes(List.of(key("tomato")));
        int[] teal = LocalCopy.stripes(List.of(key("teal")));
        long tomatoBefore = copy.stamp(tomato);
        long tealBefore = copy.stamp(teal);

        copy.invalidate(key("tomato"));

        assertThat(copy.stamp(tomato)).isNotEqualTo(tomatoBefore);
        assertThat(copy.stamp(teal)).as("teal shares no stripe with tomato").isEqualTo(tealBefore);
    }

    @Test
    void aDerivedValueIsServedAtItsStampOnly() {
        Object id = new Object();
        int[] stripes = LocalCopy.stripes(List.of(key("tomato"), key("teal")));
        long stamp = copy.stamp(stripes);
        copy.putDerived(id, stripes, stamp, "joined", 10, NEVER);
        assertThat(copy.derived(id, copy.stamp(stripes))).isEqualTo("joined");

        copy.invalidate(key("teal"));

        assertThat(copy.derived(id, copy.stamp(stripes))).as("after one of its keys changed").isNull();
    }

    /** Served before its instant and not after: a second ahead, so that no ordinary stall of the test passes it before the first read. */
    @Test
    void anEntryExpiresAtItsInstant() throws InterruptedException {
        long expires = System.nanoTime() + 1_000_000_000L;
        copy.put(key("tomato"), copy.generation(key("tomato")), OLD, 10, expires);
        assertThat(copy.get(key("tomato"))).isSameAs(OLD);

        long left;
        while ((left = expires + 50_000_000L - System.nanoTime()) > 0) {
            Thread.sleep(left / 1_000_000 + 1);
        }

        assertThat(copy.get(key("tomato"))).as("50 ms past its instant").isNull();
    }

    /** Keys as bytes: two Java strings that Redis stores as one key are one key in the copy, so one invalidation removes both. */
    @Test
    void keysAreComparedAsTheBytesRedisSees() {
        String surrogate = "k\uD800";
        String question = "k?";
        assertThat(surrogate).isNotEqualTo(question);
        put(copy, surrogate, copy.generation(key(surrogate)), OLD);

        copy.invalidate(RedisKey.of(java.nio.ByteBuffer.wrap(question.getBytes(StandardCharsets.UTF_8))));

        assertThat(copy.get(key(surrogate))).as("the key Redis knows as k?, after Redis invalidated k?").isNull();
    }

    /**
     * The race of a derived value, forced rather than hoped for: an invalidation of tomato is held
     * halfway, at the removal (the test holds the lock of tomato's entry, which the removal takes),
     * while a reader takes the stamp and then reads tomato, as {@link Derived} does. The reader still
     * sees the old tomato; once the invalidation is through, the stamp must have moved, so that what the
     * reader derived is retired. (A stamp raised before the removal let exactly such a value stand until
     * some other key changed.)
     */
    @Test
    void aValueDerivedWhileAnInvalidationIsUnderWayIsRetiredWhenItEnds() throws InterruptedException {
        int[] stripes = LocalCopy.stripes(List.of(key("tomato")));
        put(copy, "tomato", copy.generation(key("tomato")), OLD);
        CountDownLatch locked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = new Thread(() -> copy.values().asMap().compute(key("tomato"), (key, held) -> {
            locked.countDown();
            awaitQuietly(release);
            return held;
        }), "holds tomato's entry");
        holder.start();
        locked.await();
        Thread invalidator = new Thread(() -> copy.invalidate(key("tomato")), "invalidates");
        invalidator.start();
        awaitBlocked(invalidator);

        long stamp = copy.stamp(stripes);
        Object read = copy.get(key("tomato"));

        release.countDown();
        invalidator.join();
        holder.join();
        assertThat(read).as("what the reader read while the invalidation was held").isSameAs(OLD);
        assertThat(copy.get(key("tomato"))).isNull();
        assertThat(copy.stamp(stripes)).as("the stamp the reader kept its value with, after the invalidation").isNotEqualTo(stamp);
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
        long generation = copy.generation(key(tomato));
        copy.invalidate(key(other));

        put(copy, tomato, generation, OLD);

        assertThat(copy.get(key(tomato))).isNull();
        put(copy, tomato, copy.generation(key(tomato)), NEW);
        assertThat(copy.get(key(tomato))).isSameAs(NEW);
    }

    @Test
    void holdsAtMostItsBoundInBytes() {
        LocalCopy small = new LocalCopy(10_000, new LocalCopy.Counters());
        for (int i = 0; i < 300; i++) {
            RedisKey key = key("key" + i);
            small.put(key, small.generation(key), bytes("value" + i), 100, NEVER);
        }

        assertThat(small.bytes()).isLessThanOrEqualTo(10_000);
        assertThat(small.size()).isLessThanOrEqualTo(100);
    }

    /** A copy given a smaller share of the budget (another cache opened) evicts down to it at once, and takes no more. */
    @Test
    void aSmallerBoundEvictsAtOnce() {
        LocalCopy copy = new LocalCopy(10_000, new LocalCopy.Counters());
        for (int i = 0; i < 90; i++) {
            RedisKey key = key("key" + i);
            copy.put(key, copy.generation(key), bytes("value" + i), 100, NEVER);
        }
        assertThat(copy.bytes()).isEqualTo(9_000);

        copy.resize(3_000);
        assertThat(copy.bytes()).isLessThanOrEqualTo(3_000);
        for (int i = 90; i < 120; i++) {
            RedisKey key = key("key" + i);
            copy.put(key, copy.generation(key), bytes("value" + i), 100, NEVER);
        }
        assertThat(copy.bytes()).isLessThanOrEqualTo(3_000);
    }

    private static String sameStripe(String key) {
        for (int i = 0; ; i++) {
            String other = "other" + i;
            if (LocalCopy.stripe(key(other)) == LocalCopy.stripe(key(key))) {
                return other;
            }
        }
    }

    /**
     * Readers that read a value from "Redis" (a version per color), then put it, against a writer that
     * raises a color's version and then invalidates it, as Redis does after a write. Once they stop,
     * one more read of each color is put with nothing racing it: every color must then be held, at its
     * latest version. Without the generation check, a reader that read before a write and put after its
     * invalidation leaves an old version for good; and a copy that refused everything would hold nothing.
     */
    @Test
    void readersRacingInvalidationsLeaveNoOldVersionBehind() throws InterruptedException {
        List<String> names = List.of("teal", "tomato", "tan", "thistle");
        AtomicLongArray versions = new AtomicLongArray(names.size());
        AtomicBoolean running = new AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicLong kept = new java.util.concurrent.atomic.AtomicLong();
        List<Thread> threads = new ArrayList<>();
        threads.add(new Thread(() -> {
            while (running.get()) {
                int i = ThreadLocalRandom.current().nextInt(names.size());
                versions.incrementAndGet(i);
                copy.invalidate(key(names.get(i)));
            }
        }));
        for (int r = 0; r < 3; r++) {
            threads.add(new Thread(() -> {
                while (running.get()) {
                    int i = ThreadLocalRandom.current().nextInt(names.size());
                    long generation = copy.generation(key(names.get(i)));
                    byte[] read = bytes(Long.toString(versions.get(i)));
                    Thread.yield();
                    if (copy.put(key(names.get(i)), generation, read, 10, NEVER)) {
                        kept.incrementAndGet();
                    }
                }
            }));
        }
        threads.forEach(Thread::start);
        Thread.sleep(1000);
        running.set(false);
        for (Thread thread : threads) {
            thread.join();
        }

        assertThat(kept.get()).as("puts kept during the race").isPositive();
        for (int i = 0; i < names.size(); i++) {
            Object held = copy.get(key(names.get(i)));
            if (held != null) {
                assertThat(new String((byte[]) held, StandardCharsets.US_ASCII)).as(names.get(i)).isEqualTo(Long.toString(versions.get(i)));
            }
            put(copy, names.get(i), copy.generation(key(names.get(i))), bytes(Long.toString(versions.get(i))));
            assertThat(new String((byte[]) copy.get(key(names.get(i))), StandardCharsets.US_ASCII)).as("%s read once more", names.get(i))
                    .isEqualTo(Long.toString(versions.get(i)));
        }
    }

    private static RedisKey key(String key) {
        return RedisKey.of(key);
    }

    private static void put(LocalCopy copy, String key, long generation, byte[] value) {
        copy.put(key(key), generation, value, 10, NEVER);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
