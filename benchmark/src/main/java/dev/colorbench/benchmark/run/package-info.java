/**
 * Everything that runs during a benchmark: the data stores, one JVM per module (started, awaited,
 * verified before any load, with what one request costs in Redis), JMeter on the generated plan,
 * and {@link dev.colorbench.benchmark.run.ChildProcesses}, which stops all of them whatever happens.
 */
package dev.colorbench.benchmark.run;
