/**
 * What JMeter is asked to do: the schedule of the run (per row a warm-up, then closed-model and
 * open-model runs, repetitions interleaved across rows) and the one plan that carries it out,
 * built from the checked-in plans, with a reading of each module's own metrics placed by the plan
 * itself right before and right after every measured run.
 */
package dev.colorbench.benchmark.plan;
