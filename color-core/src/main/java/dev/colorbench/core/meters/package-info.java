/**
 * Meters only the benchmark reads: the bytes the module's JVM has allocated, and a histogram of
 * {@code GET /colors} at the actuator endpoint {@code latency}. They are not part of any pattern, and
 * an application that copies a module does not need them (see docs/measuring.md#cpu-per-request and
 * docs/measuring.md#latency-at-a-share-of-throughput).
 */
package dev.colorbench.core.meters;
