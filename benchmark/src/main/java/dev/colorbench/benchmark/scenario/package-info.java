/**
 * The questions the benchmark answers besides the headline comparison, each opt-in with
 * {@code -Dbenchmark.scenario=<name>}: what changes the answer (the distance to Redis, the number
 * of keys, the number of clients, the client library and thread model, a fault under load). A
 * scenario decides which rows to measure under which conditions, measures them through the
 * {@code run} stage, and turns what it measured into its section of the report.
 */
package dev.colorbench.benchmark.scenario;
