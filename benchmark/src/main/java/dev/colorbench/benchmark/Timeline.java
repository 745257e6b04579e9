package dev.colorbench.benchmark;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Where the run's time went, by stage (starting the JVMs, verifying, warming, JMeter, dashboards, ...), summed over every
 * condition: what a run that takes too long is shortened by. One run per process, so one timeline.
 */
public final class Timeline {

    private static final Map<String, Long> NANOS = new LinkedHashMap<>();

    private static final long START = System.nanoTime();

    private Timeline() {
    }

    /** Runs {@code work}, adding its time to {@code stage}. */
    public static <T> T timed(String stage, Supplier<T> work) {
        long start = System.nanoTime();
        try {
            return work.get();
        }
        finally {
            long nanos = System.nanoTime() - start;
            add(stage, nanos);
            Progress.stageEnded(stage, nanos / 1e9);
        }
    }

    public static void timed(String stage, Runnable work) {
        timed(stage, () -> {
            work.run();
            return null;
        });
    }

    private static synchronized void add(String stage, long nanos) {
        NANOS.merge(stage, nanos, Long::sum);
    }

    /** Each stage's seconds, in the order first timed, and the whole run's so far under {@code total}. */
    public static synchronized Map<String, Long> seconds() {
        Map<String, Long> seconds = new LinkedHashMap<>();
        NANOS.forEach((stage, nanos) -> seconds.put(stage, Math.round(nanos / 1e9)));
        seconds.put("total", Math.round((System.nanoTime() - START) / 1e9));
        return seconds;
    }

    /** {@code starting JVMs 2m10s, warm-up 9m02s, ..., total 24m40s}. */
    public static String describe() {
        return seconds().entrySet().stream().map(stage -> stage.getKey() + " " + Format.duration(stage.getValue()))
                .collect(Collectors.joining(", "));
    }
}
