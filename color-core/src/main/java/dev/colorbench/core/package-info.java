/**
 * What every module shares whatever its store: the settings added to its environment
 * ({@link dev.colorbench.core.ColorDefaults}) and the seeding of its store once it has started
 * ({@link dev.colorbench.core.ColorSeeder}). Each sub-package holds one concern: the palette, the
 * web contract, Redis, the {@code @Cacheable} cache, the database, and the benchmark's meters.
 */
package dev.colorbench.core;
