/**
 * The one Redis cache every {@code @Cacheable} module shares, so that those modules hold no cache
 * configuration: JSON values, immediate writes, and caches that also read and write many keys in one
 * round trip ({@link dev.colorbench.core.cache.MultiGetRedisCache}). Every value read is checked
 * against its key, and an unreadable one is a miss.
 */
package dev.colorbench.core.cache;
