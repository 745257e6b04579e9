package dev.colorbench.redis.nearcache;

import java.util.function.Supplier;

/**
 * A value computed from the values of a fixed list of keys (a whole list joined into one response,
 * a total), kept with the local copy and served until any key the copy tracks is invalidated: a warm
 * {@link #get()} neither reads Redis nor computes anything. Made by {@link NearCache#derive}.
 *
 * <p>It is kept only when every key had a readable value ({@link Values#complete()}) and no
 * invalidation arrived while it was computed; otherwise the next {@link #get()} computes it again,
 * reading from the copy what it holds and the rest with one MGET.
 *
 * @param <R> the derived value
 */
public final class Derived<R> {

    private final Supplier<R> value;

    Derived(Supplier<R> value) {
        this.value = value;
    }

    /** The kept value, or, after an invalidation or while tracking is not active, the value computed again. */
    public R get() {
        return value.get();
    }
}
