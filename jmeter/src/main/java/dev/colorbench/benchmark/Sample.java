package dev.colorbench.benchmark;

/**
 * One request as JMeter recorded it: start time (epoch ms, {@code sampleresult.timestamp.start}),
 * elapsed whole milliseconds, label, outcome. {@code line} is the record as written, kept to
 * split the results per module.
 */
record Sample(long timestamp, long elapsed, String label, boolean success, String responseCode, String failureMessage, String line) {

    long end() {
        return timestamp + elapsed;
    }
}
