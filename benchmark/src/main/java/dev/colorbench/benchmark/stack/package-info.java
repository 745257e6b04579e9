/**
 * The whole stack on one machine, without Docker, of {@code ./mvnw -Pstack verify}: which modules it
 * starts, that each one's README port is free, and the run that starts them with the data stores and
 * keeps them up until Maven's JVM is stopped. Starting, awaiting and stopping are the benchmark's own
 * ({@code run}: {@code DataStores}, {@code ModuleLauncher}, {@code ChildProcesses}); this package only
 * decides which modules, on which ports, and for how long.
 */
package dev.colorbench.benchmark.stack;
