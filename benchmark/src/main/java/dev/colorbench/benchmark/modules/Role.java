package dev.colorbench.benchmark.modules;

import java.util.Arrays;
import java.util.Locale;

/** What a module is in the comparison. */
public enum Role {

    /** The same answer with no store on the read path: what this machine can serve at best. */
    CEILING,
    /** One way of reading the palette from Redis. */
    REDIS_PATTERN,
    /** The same contract from a relational database, to see what Redis buys. */
    DATABASE_BASELINE;

    /** {@code ceiling}, {@code redis-pattern}, {@code database-baseline}, as the poms spell them. */
    static Role of(String name) {
        return Arrays.stream(values())
                .filter(role -> role.name().replace('_', '-').equalsIgnoreCase(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Unknown colorbench.role '" + name + "'"));
    }

    @Override
    public String toString() {
        return name().replace('_', '-').toLowerCase(Locale.ROOT);
    }
}
