package dev.colorbench.benchmark.modules;

import java.util.Arrays;
import java.util.Locale;

/** The data store a module needs running before it starts. */
public enum Store {

    NONE, REDIS, POSTGRESQL;

    static Store of(String name) {
        return Arrays.stream(values())
                .filter(store -> store.name().equalsIgnoreCase(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Unknown colorbench.store '" + name + "'"));
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
