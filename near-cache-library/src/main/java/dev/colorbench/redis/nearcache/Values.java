package dev.colorbench.redis.nearcache;

import java.util.Collections;
import java.util.List;

/**
 * What one read of many keys found, in the order they were asked for.
 *
 * @param values each key's value, null where Redis held nothing or nothing readable
 * @param missing the keys Redis held nothing for, each once
 * @param unreadable the keys whose value the {@link ValueDecoder} could not read, each once
 * @param <V> the values the cache serves
 */
public record Values<V>(List<V> values, List<String> missing, List<String> unreadable) {

    public Values {
        values = Collections.unmodifiableList(values);
        missing = List.copyOf(missing);
        unreadable = List.copyOf(unreadable);
    }

    /** Whether every key had a readable value: only then is a value derived from them kept ({@link Derived}). */
    public boolean complete() {
        return missing.isEmpty() && unreadable.isEmpty();
    }
}
