/**
 * A near cache for Spring Boot applications on Lettuce: Redis string values kept in the application's
 * memory, and dropped as soon as Redis says they changed. {@link dev.colorbench.redis.nearcache.NearCacheTracking}
 * holds the RESP3 tracking connections (broadcast mode, one per server, a heartbeat on each) and
 * {@link dev.colorbench.redis.nearcache.NearCache} the reads: from the local copy while every tracking
 * connection is confirmed, from Redis with one MGET otherwise and for what the copy lacks.
 *
 * <p>Self-contained: copy this one package into an application, with its auto-configuration import, or
 * depend on {@code dev.colorbench:redis-near-cache}.
 */
package dev.colorbench.redis.nearcache;
