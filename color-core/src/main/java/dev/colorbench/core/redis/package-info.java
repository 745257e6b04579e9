/**
 * How the Redis modules keep colors: the key scheme, the one codec and check of stored values, and
 * the healing of keys found missing or unreadable. It also tells Redis error replies and client
 * failures apart, and holds the Lettuce settings every Redis module runs with (see
 * docs/measuring.md#client-settings).
 */
package dev.colorbench.core.redis;
