/**
 * The benchmark run of {@code ./mvnw -Pbenchmark verify}, owned by one process from start to end:
 * {@link dev.colorbench.benchmark.Benchmark} runs the stages in order, each in a package of its own:
 * {@code modules} (which modules there are and how each describes itself), {@code run} (the data
 * stores, the module JVMs, verification before load, JMeter, and stopping them all), {@code plan}
 * (the schedule and the JMeter plan that carries it out), {@code results} (JMeter's samples and
 * the modules' own readings, as figures per run) and {@code report} (the report and the error check).
 */
package dev.colorbench.benchmark;
