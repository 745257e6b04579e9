package dev.colorbench.benchmark.results;

/** One request of the load as JMeter recorded it: start (epoch ms), elapsed whole milliseconds, outcome. */
public record Sample(long timestamp, long elapsed, boolean success) {

    public long end() {
        return timestamp + elapsed;
    }
}
