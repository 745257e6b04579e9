package dev.colorbench.core.redis;

import java.time.Duration;
import java.util.Collection;
import java.util.function.Function;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a module says when it finds its data damaged and mends it: one logger
 * ({@code dev.colorbench.core.redis.Healing}) and the same words in every module, so that an
 * operator can follow bad data across them.
 *
 * <ul>
 * <li>An unreadable value is a warning naming its key (and its field, in a hash), once per value
 * found: a module rewrites it, so the next read finds it readable and says nothing.</li>
 * <li>Missing keys (Redis restarted empty, or was flushed) are normal: one info line per read
 * that writes them back.</li>
 * <li>A write the server refused (memory full under {@code noeviction}) changes nothing for the
 * caller, who gets the palette's colors; while Redis stays full every read is refused again, so
 * the warning is given at most once per {@link #REFUSAL_WARNING_INTERVAL}, with a count.</li>
 * </ul>
 */
public final class Healing {

    static final Duration REFUSAL_WARNING_INTERVAL = Duration.ofSeconds(10);

    private static final Logger log = LoggerFactory.getLogger(Healing.class);

    private static final AtomicLong nextRefusalWarning = new AtomicLong(System.nanoTime());

    private static final AtomicLong refusalsSinceWarning = new AtomicLong();

    private Healing() {
    }

    /** An unreadable value at {@code key}, which the module is about to rewrite from the palette. */
    public static void unreadable(String key) {
        log.warn("Unreadable value at {}: not a color for this key; answering from the palette and rewriting it", key);
    }

    /** An unreadable value in the field {@code field} of the hash {@code key}, which the module is about to rewrite. */
    public static void unreadableField(String key, String field) {
        log.warn("Unreadable value at {} field {}: not a color for this field; answering from the palette and rewriting it", key, field);
    }

    /** Fields of the hash {@code key} found missing (or the whole hash), which the module is about to write from the palette. */
    public static void missingFields(String key, Collection<String> fields) {
        if (!fields.isEmpty()) {
            log.info("Writing {} missing field(s) of {} from the palette, the first {}", fields.size(), key, fields.iterator().next());
        }
    }

    /** Keys found missing, which the module is about to write from the palette. */
    public static void missing(Collection<String> keys) {
        if (!keys.isEmpty()) {
            log.info("Writing {} missing key(s) from the palette, the first {}", keys.size(), keys.iterator().next());
        }
    }

    /**
     * Reports what a read of many keys found before the module writes {@link StoredColors#toWrite()}:
     * a warning for each unreadable value and for each missing one that turned out to be a key
     * of another type ({@code wrongType}, names), an info line for the rest of the missing.
     */
    public static void report(StoredColors stored, Collection<String> wrongType, Function<String, String> keyOf) {
        report(stored.missing(), stored.unreadable(), wrongType, keyOf);
    }

    /**
     * The same, for a module that reads many keys without decoding them into colors: names whose
     * key held nothing (or, for a multi-get, not a string), names whose value was unreadable, and
     * those of the missing that turned out to be keys of another type.
     */
    public static void report(Collection<String> missing, Collection<String> unreadable, Collection<String> wrongType,
            Function<String, String> keyOf) {
        unreadable.forEach(name -> unreadable(keyOf.apply(name)));
        wrongType.forEach(name -> unreadable(keyOf.apply(name)));
        missing(missing.stream().filter(name -> !wrongType.contains(name)).map(keyOf).toList());
    }

    /** Redis refused to store {@code keys} keys; the read was answered from the palette all the same. */
    public static void writeRefused(int keys, Throwable error) {
        long now = System.nanoTime();
        long next = nextRefusalWarning.get();
        if (now - next >= 0 && nextRefusalWarning.compareAndSet(next, now + REFUSAL_WARNING_INTERVAL.toNanos())) {
            long earlier = refusalsSinceWarning.getAndSet(0);
            log.warn("Redis refused to store {} key(s) ({}); answered from the palette without storing them"
                    + " ({} more refusal(s) since the last warning)", keys, RedisReplies.refusedWriteCode(error), earlier);
        }
        else {
            refusalsSinceWarning.incrementAndGet();
            log.debug("Redis refused to store {} key(s) ({})", keys, RedisReplies.refusedWriteCode(error));
        }
    }
}
