package dev.colorbench.benchmark;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Where a run is and how long it expects to have left, from its first minute: the stages of the headline with their
 * expected seconds, each replaced by its real time when it ends, and the warm-up corrected after each group of rows by
 * the groups so far. The estimate grows with the rows, the repetitions and the caps of the warm-up
 * (docs/measuring.md#how-long-a-run-takes). Scenarios after the headline print their own lines.
 */
public final class Progress {

    /** The stages {@link Timeline} times, in their order, under the names the estimate shows. */
    static final Map<String, java.util.List<String>> STAGES = stages();

    private static Progress current;

    private final long start = System.nanoTime();

    private final Map<String, Double> left = new LinkedHashMap<>();

    private final int groups;

    private int groupsDone;

    private int forkGroupsDone;

    private double groupSecondsSoFar;

    private Progress(Map<String, Double> expected, int groups) {
        left.putAll(expected);
        this.groups = groups;
    }

    private static Map<String, java.util.List<String>> stages() {
        Map<String, java.util.List<String>> stages = new LinkedHashMap<>();
        stages.put("machine steadiness", java.util.List.of("machine steadiness"));
        stages.put("starting the modules", java.util.List.of("starting the modules"));
        stages.put("warming up", java.util.List.of("warm-up"));
        // JMeter runs three times: the closed model's plan, the open model's, then the profiles' load
        stages.put("JMeter", java.util.List.of("closed model", "open model", "profiles"));
        stages.put("report", java.util.List.of("report"));
        return stages;
    }

    /**
     * The headline's plan: {@code rows} JVMs started at most {@code cores} at a time, warmed in groups of {@code cores},
     * then {@code measuredSeconds} of JMeter's planned load, all of it once per fork; prints the first estimate.
     */
    public static synchronized void begin(BenchmarkSettings settings, int rows, int cores, long measuredSeconds) {
        int groups = (rows + cores - 1) / Math.max(1, cores);
        int forks = Math.max(1, settings.forks());
        Map<String, Double> expected = new LinkedHashMap<>();
        expected.put("machine steadiness", 2.0 * settings.durationSeconds());
        // every fork starts, warms and measures every row again, so each has its own stages, in the order they run
        for (int fork = 1; fork <= forks; fork++) {
            String prefix = forks > 1 ? "fork " + fork + ": " : "";
            // a module's start is mostly its JIT's and Spring's work: about 12 s of a core with C2 (18 rows took 1m52s), less on C1 alone (quick)
            expected.put(prefix + "starting the modules", groups * (settings.quick() ? 6.0 : 12.0) + 10);
            // a group takes up to its light phase's cap, then up to the full-load cap while its JIT compiles; a slow row may go on
            // to warmupLimit, which the estimate leaves out because it is rare at full speed, and corrects as each group ends
            expected.put(prefix + "warm-up", groups * (double) (settings.warmupTogetherSeconds() + Math.max(settings.warmupSeconds(), settings.warmupCompilingSeconds())));
            // the closed model's plan (its rounds shared out over the forks), then the open model at two shares of each row's
            // throughput, and JMeter's own starts
            expected.put(prefix + "closed model", (double) measuredSeconds / forks + 15.0);
            expected.put(prefix + "open model", rows * (2.0 * settings.latencyDurationSeconds() + Math.min(2, settings.jmeterWarmupSeconds())) + 15);
        }
        if (settings.profileSeconds() > 0) {
            // each row's load while the profiler samples, and attaching to every module; once, in the last fork
            expected.put("profiles", rows * (settings.profileSeconds() + 1.0) + 15);
        }
        expected.put("report", 30.0);
        current = new Progress(expected, groups);
        current.print("planned: " + rows + " rows in " + groups + " group(s) of " + cores + (forks > 1 ? ", in " + forks + " forks" : ""));
    }

    /** A stage {@link Timeline} timed has ended after {@code seconds}: the first of its estimates still left is gone. */
    static synchronized void stageEnded(String stage, double seconds) {
        if (current == null || !STAGES.containsKey(stage)) {
            return;
        }
        current.first(STAGES.get(stage)).ifPresent(name -> {
            current.left.remove(name);
            if (stage.equals("warming up")) {
                current.forkGroupsDone = 0;
            }
            current.print(name + " done in " + Format.duration(Math.round(seconds)));
        });
    }

    /**
     * A group of rows has been warmed, in {@code seconds}: the groups left, in this fork and in the forks after it, are
     * expected to take as long as those so far.
     */
    public static synchronized void warmGroupEnded(double seconds) {
        if (current == null) {
            return;
        }
        java.util.Optional<String> warming = current.first(java.util.List.of("warm-up"));
        if (warming.isEmpty()) {
            return;
        }
        current.groupsDone++;
        current.forkGroupsDone++;
        current.groupSecondsSoFar += seconds;
        double perGroup = current.groupSecondsSoFar / current.groupsDone;
        int remaining = Math.max(0, current.groups - current.forkGroupsDone);
        current.left.replaceAll((name, expected) -> !stageOf(name).equals("warm-up") ? expected
                : name.equals(warming.get()) ? remaining * perGroup : current.groups * perGroup);
        if (remaining > 0) {
            current.print("%s: %d of %d group(s) done".formatted(warming.get(), current.forkGroupsDone, current.groups));
        }
    }

    /** The seconds still expected, by the names the estimate shows, in the order the stages run. */
    static synchronized Map<String, Double> left() {
        return current == null ? Map.of() : new LinkedHashMap<>(current.left);
    }

    /** The first estimate still left whose stage, without its fork, is one of {@code stages}. */
    private java.util.Optional<String> first(java.util.List<String> stages) {
        return left.keySet().stream().filter(name -> stages.contains(stageOf(name))).findFirst();
    }

    /** A name the estimate shows without its fork: "fork 2: warm-up" is the warm-up's. */
    private static String stageOf(String name) {
        return name.startsWith("fork ") && name.contains(": ") ? name.substring(name.indexOf(": ") + 2) : name;
    }

    /** The headline has ended: later lines are the scenarios' own. */
    public static synchronized void end() {
        if (current != null) {
            current.left.clear();
            current = null;
        }
    }

    private void print(String what) {
        long elapsed = Math.round((System.nanoTime() - start) / 1e9);
        double total = left.values().stream().mapToDouble(Double::doubleValue).sum();
        Console.info("progress: %s; %s in, about %s left (%s)".formatted(what, Format.duration(elapsed), Format.duration(Math.round(total)),
                left.entrySet().stream().map(stage -> stage.getKey() + " " + Format.duration(Math.round(stage.getValue())))
                        .collect(Collectors.joining(", "))));
    }
}
