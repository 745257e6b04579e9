package dev.colorbench.redis.nearcache;

import java.time.Duration;
import java.util.List;

import org.springframework.dao.DataAccessException;

import static org.assertj.core.api.Assertions.fail;

/**
 * The tracking tests' reads through a near cache of strings: until another writer's change is served, judged by when each read
 * began, and until every key is warm. A read that fails (a master away) is neither, and is read again.
 */
final class Reads {

    private final NearCache<String> cache;

    private final NearCacheTracking tracking;

    Reads(NearCache<String> cache, NearCacheTracking tracking) {
        this.cache = cache;
        this.tracking = tracking;
    }

    /**
     * Reads {@code key} until it is {@code expected}; fails if a read that began more than {@code bound} after {@code written} (the
     * write's reply, {@link System#nanoTime()}) still shows another value. The time from the write to the read that showed it.
     */
    Duration awaitServed(String key, String expected, long written, Duration bound) {
        while (true) {
            long started = System.nanoTime();
            String value;
            try {
                value = cache.getAll(List.of(key)).values().get(0);
            }
            catch (DataAccessException ex) {
                value = null;
            }
            if (expected.equals(value)) {
                return Duration.ofNanos(started - written);
            }
            if (started - written > bound.toNanos()) {
                fail("%s still reads %s %s after another writer wrote %s (drops %d, undelivered %d, last drop %s, servers %s)", key, value,
                        bound, expected, tracking.drops(), tracking.undelivered(), tracking.lastDrop(), tracking.servers());
            }
        }
    }

    /** Until a read of every key costs no load, within 30 s; how long that took. */
    Duration awaitWarm(List<String> keys) throws InterruptedException {
        long started = System.nanoTime();
        long deadline = started + Duration.ofSeconds(30).toNanos();
        while (true) {
            long loads = cache.statistics().loads();
            try {
                cache.getAll(keys);
                if (tracking.isActive() && cache.statistics().loads() == loads) {
                    return Duration.ofNanos(System.nanoTime() - started);
                }
            }
            catch (DataAccessException ex) {
                // a master away: read again
            }
            if (System.nanoTime() > deadline) {
                fail("no warm read within 30 s (servers %s, last drop %s)", tracking.servers(), tracking.lastDrop());
            }
            Thread.sleep(20);
        }
    }
}
