/**
 * What the run measured, as figures per run: JMeter's samples (its CSV, read by column name) with
 * their throughput and latency, and the modules' own readings around each run (requests served and
 * the time they took, bytes allocated, garbage-collection pauses). A figure that cannot be known is
 * missing ({@code null}), never 0.
 */
package dev.colorbench.benchmark.results;
