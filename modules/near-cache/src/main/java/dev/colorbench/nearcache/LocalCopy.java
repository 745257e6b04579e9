package dev.colorbench.nearcache;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.colorbench.core.palette.Palette;

/**
 * The colors this module answers without Redis, for as long as one tracking session lasts: each
 * color's canonical JSON by name in a Caffeine cache, plus the whole palette's array joined from them.
 * A new copy, empty, is made each time Redis confirms tracking on a (re)connected connection
 * (on a Redis Cluster: once every master's connection is confirmed; {@link Tracking}); when a tracking
 * connection is lost the copy is {@link #discard() discarded} at once and never filled again, since
 * the invalidations it would have needed may be gone with it.
 *
 * <p><b>Bounded.</b> At most one entry per palette color, {@link #MAXIMUM_SIZE} (148 by default):
 * names are checked against the palette before they reach the store, so no request can add another
 * key, and Caffeine's {@code maximumSize} holds the bound even so. Each entry is 59 to 80 bytes of
 * JSON (10,054 for the 148); with the palette's array (10,203 bytes) and a generation counter per
 * color, a copy holds about 21 KB of data, and Caffeine's bookkeeping per entry on top.
 *
 * <p><b>The near-cache race, made impossible.</b> A reader takes a color's <em>generation</em>
 * before it reads Redis, and puts what Redis answered only if the generation is still the same;
 * each invalidation raises the generation before it removes the entry. So a value read before a
 * write and put after that write's invalidation was handled is refused, instead of staying in the
 * copy for good (Lettuce's own {@code ClientSideCaching} reads and puts with no such check). The
 * check runs inside Caffeine's {@code compute}, under the lock the invalidation's removal also
 * takes, and once more after it, so that a put and an invalidation of the same color can interleave
 * in any order: either the put is refused or the invalidation removes it.
 *
 * <p>The whole palette's array is kept with the number of invalidations the copy had finished
 * handling before its colors were read, and served only while that number has not moved: one
 * invalidation of any color, or of everything, retires it. An invalidation raises that number only
 * once the color is gone, so no reader can see the new number and still the old color.
 */
final class LocalCopy {

    /** One entry per palette color, never more. */
    static final int MAXIMUM_SIZE = Palette.names().size();

    /** Each palette name's position, the index of its generation. */
    private static final Map<String, Integer> POSITIONS = positions(Palette.names());

    private final Cache<String, byte[]> colors;

    private final AtomicLongArray generations = new AtomicLongArray(POSITIONS.size());

    /**
     * Every invalidation this copy has finished handling, of one color or of all: what retires the
     * palette's array. Raised only after the colors are removed (see {@link #invalidate}).
     */
    private final AtomicLong changes = new AtomicLong();

    private volatile Joined palette;

    private volatile boolean live = true;

    /** The whole palette's array, joined once from the copy's colors when {@link #changes} stood at {@code changes}. */
    private record Joined(long changes, byte[] json) {
    }

    LocalCopy() {
        this(newColors());
    }

    /** A copy over {@code colors}, a cache made by {@link #newColors()}: the tests hold its locks to force an interleaving. */
    LocalCopy(Cache<String, byte[]> colors) {
        this.colors = colors;
    }

    static Cache<String, byte[]> newColors() {
        return Caffeine.newBuilder()
                .maximumSize(MAXIMUM_SIZE)
                // maintenance in the calling thread: no pool thread of its own, nothing left running
                .executor(Runnable::run)
                .build();
    }

    /** The canonical JSON of the color {@code name}, or null when the copy does not hold it. */
    byte[] color(String name) {
        return colors.getIfPresent(name);
    }

    /** The JSON array of the whole palette, or null unless it was joined after the last invalidation. */
    byte[] palette() {
        Joined kept = palette;
        return (kept != null && kept.changes() == changes.get()) ? kept.json() : null;
    }

    /** To be read before the copy's colors are, to {@link #keepPalette keep} the array they are joined into. */
    long changes() {
        return changes.get();
    }

    /** To be read before Redis is, to {@link #put put} what it answers for {@code name}. */
    long generation(String name) {
        return generations.get(position(name));
    }

    /**
     * Keeps {@code json}, what Redis held for {@code name}, unless the color was invalidated since
     * {@code generation} was read or the copy was discarded.
     */
    void put(String name, long generation, byte[] json) {
        int position = position(name);
        colors.asMap().compute(name, (key, current) -> unchanged(position, generation) ? json : current);
        if (!unchanged(position, generation)) {
            colors.asMap().remove(name, json);
        }
    }

    /** Keeps the palette's array, joined from colors read after {@link #changes()} answered {@code changesBefore}. */
    void keepPalette(long changesBefore, byte[] json) {
        if (live && changes.get() == changesBefore) {
            palette = new Joined(changesBefore, json);
        }
    }

    /**
     * Redis says the color {@code name} changed; a name that is not the palette's is none of this copy's.
     *
     * <p>The order is the point: the generation first (from then on no put of an older read is
     * taken), then the color goes, and only then {@link #changes} moves. A reader joining the palette
     * reads {@code changes} before it reads any color: if it still saw the old color, it saw a count
     * from before this invalidation finished, and the array it keeps with that count is retired when
     * the count moves. Raising the count first would let a reader see the new count and then the old
     * color, not removed yet, and keep an array that nothing retires until another color changes.
     */
    void invalidate(String name) {
        Integer position = POSITIONS.get(name);
        if (position == null) {
            return;
        }
        generations.incrementAndGet(position);
        colors.invalidate(name);
        changes.incrementAndGet();
    }

    /** Redis says everything may have changed (a flush): in the same order as {@link #invalidate}. */
    void invalidateAll() {
        for (int position = 0; position < generations.length(); position++) {
            generations.incrementAndGet(position);
        }
        colors.invalidateAll();
        changes.incrementAndGet();
    }

    /** Tracking was lost: empties the copy and refuses every later put, for readers still holding it. */
    void discard() {
        live = false;
        invalidateAll();
    }

    boolean isLive() {
        return live;
    }

    /** The colors held now. */
    long size() {
        colors.cleanUp();
        return colors.estimatedSize();
    }

    private boolean unchanged(int position, long generation) {
        return live && generations.get(position) == generation;
    }

    private static int position(String name) {
        Integer position = POSITIONS.get(name);
        if (position == null) {
            throw new IllegalArgumentException("Not a palette color: " + name);
        }
        return position;
    }

    private static Map<String, Integer> positions(List<String> names) {
        Map<String, Integer> positions = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            positions.put(names.get(i), i);
        }
        return Map.copyOf(positions);
    }
}
