package dev.colorbench.core;

import dev.colorbench.core.palette.Palette;

/**
 * Writes a module's own keys from the {@link Palette}. Must be idempotent: it runs at every
 * start and whenever a read finds the keys gone, and it touches nothing outside the module's
 * namespace: it never flushes the database, lists keys by pattern or deletes other keys.
 */
public interface ColorSeeder {

    void seed();
}
