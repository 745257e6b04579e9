package dev.colorbench.benchmark.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.run.Jdk;
import dev.colorbench.benchmark.run.MachineSteadiness;
import dev.colorbench.benchmark.run.SteadyState;

/** The facts a reader needs to judge the numbers, written beside them. */
public record Environment(String date, String gitCommit, String moduleJdk, String jvmArgs, String redisVersion, String redis, int cores,
        long memoryMb, String os, String loadGenerator, String cpuPlacement, int threads, int durationSeconds, int rampupSeconds, int latencyDurationSeconds,
        int rate, int openModelCap, String warmup, int repetitions, boolean quick, List<String> modules, MachineSteadiness machineSteadiness,
        Integer rowsSettled, Workload workload, Long seed, Integer forks, String cpuModel, Double cpuQuota) {

    /**
     * The user's workload a {@code workload} run measured the headline under ({@code null} for the headline itself): the knobs
     * as given ({@code null} where not), the round trip the path to Redis really added, and the whole in words.
     */
    public record Workload(Integer keys, Integer valueBytes, Double redisRoundTripMillis, Double measuredRedisRoundTripMillis, String description) {
    }

    static Environment collect(BenchmarkSettings settings, List<Target> targets, String redisVersion, String redis, String jmeterVersion,
            String cpuPlacement, MachineSteadiness machineSteadiness, Path repositoryRoot) {
        long memory = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getTotalMemorySize() / (1024 * 1024) : -1;
        return new Environment(ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME), gitCommit(repositoryRoot),
                Jdk.of(settings.moduleJavaHome()).description(), String.join(" ", settings.jvmArgs()),
                redisVersion, redis, Runtime.getRuntime().availableProcessors(), memory,
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                "JMeter " + jmeterVersion + " on the same machine", cpuPlacement, settings.threads(),
                settings.durationSeconds(), settings.rampupSeconds(), settings.latencyDurationSeconds(), settings.rate(), settings.openModelCap(),
                ("one row per core at a time" + (settings.warmupTogetherSeconds() > 0 ? ", at " + SteadyState.LIGHT_CLIENTS
                        + " clients each, each until its JIT is quiet or " + settings.warmupTogetherSeconds() + " s have passed, then" : "")
                        + " at the measured load, each row until its last %d windows of %d s no longer climb by more than %s %% and its JIT's compilations took at most %s %% of them "
                        + "(their elapsed time, waits for a core included: java.ci.totalTime, read from outside), or until %d s have passed%s, "
                        + "its meters read after every window as a measured run reads them; "
                        + "then a round of JMeter's own, %d s on each row, before the first measured run; in no figure").formatted(settings.warmupWindows(),
                                settings.warmupWindowSeconds(), settings.warmupTolerancePercent(), Format.number(SteadyState.JIT_QUIET_PERCENT),
                                settings.warmupSeconds(), settings.warmupLimitSeconds() > settings.warmupSeconds()
                                        ? " (while its JIT still compiles or its throughput still climbs: " + settings.warmupCompilingSeconds() + " s"
                                                + (settings.warmupCompilingRequests() > 0 && settings.warmupLimitSeconds() > settings.warmupCompilingSeconds()
                                                        ? " and until it has served " + Format.grouped(settings.warmupCompilingRequests())
                                                                + " requests, the light load's included, " + settings.warmupLimitSeconds() + " s at most"
                                                        : "")
                                                + ")" : "",
                                settings.jmeterWarmupSeconds()),
                settings.repetitions(), settings.quick(), targets.stream().map(Target::id).toList(), machineSteadiness, null, null, settings.seed(), settings.forks(), readCpuModel(),
                cpuQuota(Path.of("/proc/self/cgroup"), Path.of("/sys/fs/cgroup")));
    }

    /** The same, of a run under {@code workload}, whose path to Redis added {@code measuredMillis} ({@code null}: the direct path). */
    Environment under(dev.colorbench.benchmark.Workload workload, Double measuredMillis) {
        Double askedMillis = workload.redisRoundTrip() == null ? null : workload.redisRoundTrip().toNanos() / 1e6;
        Workload described = new Workload(workload.keys(), workload.valueBytes(), askedMillis, measuredMillis,
                workload.describe() + distance(askedMillis, measuredMillis));
        return new Environment(date, gitCommit, moduleJdk, jvmArgs, redisVersion, redis, cores, memoryMb, os, loadGenerator, cpuPlacement, threads,
                durationSeconds, rampupSeconds, latencyDurationSeconds, rate, openModelCap, warmup, repetitions, quick, modules, machineSteadiness,
                rowsSettled, described, seed, forks, cpuModel, cpuQuota);
    }

    /**
     * What the path to Redis really added, beside what was asked: the words "further away" are the knob's, the figure is the
     * run's, and a path more than 20 % off what was asked says so.
     */
    static String distance(Double askedMillis, Double measuredMillis) {
        if (measuredMillis == null) {
            return "";
        }
        boolean off = askedMillis != null && askedMillis > 0 && Math.abs(measuredMillis - askedMillis) > 0.2 * askedMillis;
        return " (asked; measured +%.3f ms%s)".formatted(measuredMillis, off ? ", OFF by more than 20 %" : "");
    }

    /** The same, with how many of the rows settled in their warm-up: what the conditions may say of it. */
    Environment settled(int rows) {
        return new Environment(date, gitCommit, moduleJdk, jvmArgs, redisVersion, redis, cores, memoryMb, os, loadGenerator, cpuPlacement, threads,
                durationSeconds, rampupSeconds, latencyDurationSeconds, rate, openModelCap, warmup, repetitions, quick, modules, machineSteadiness, rows,
                workload, seed, forks, cpuModel, cpuQuota);
    }

    /** The CPU's model as Linux names it ({@code /proc/cpuinfo}), or {@code unknown}: what a reader's own cores are compared with. */
    static String readCpuModel() {
        try (java.util.stream.Stream<String> lines = java.nio.file.Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(line -> line.startsWith("model name")).map(line -> line.substring(line.indexOf(':') + 1).strip()).findFirst()
                    .orElse("unknown");
        }
        catch (IOException | java.io.UncheckedIOException ex) {
            return "unknown";
        }
    }

    /**
     * The CPU time the run's cgroup may use, in cores ({@code 1.0}: one core's worth of each period, whatever the count of
     * cores), the least quota on the way from its cgroup to the root; {@code null} where none is set or none can be read.
     * Read from cgroup v2's {@code cpu.max} or v1's {@code cpu.cfs_quota_us}: a run with the CPU halved says so in its
     * own report (docs/measuring.md#on-a-slower-machine).
     */
    static Double cpuQuota(Path procSelfCgroup, Path cgroupRoot) {
        try {
            Double least = null;
            for (String line : java.nio.file.Files.readAllLines(procSelfCgroup)) {
                String[] parts = line.split(":", 3);
                if (parts.length < 3) {
                    continue;
                }
                boolean v2 = parts[0].equals("0") && parts[1].isEmpty();
                boolean v1 = java.util.Arrays.asList(parts[1].split(",")).contains("cpu");
                if (!v2 && !v1) {
                    continue;
                }
                Path mount = v2 ? cgroupRoot : java.util.stream.Stream.of("cpu", "cpu,cpuacct", "cpuacct,cpu").map(cgroupRoot::resolve)
                        .filter(java.nio.file.Files::isDirectory).findFirst().orElse(null);
                if (mount == null) {
                    continue;
                }
                for (Path dir = mount.resolve(parts[2].replaceFirst("^/", "")).normalize(); dir.startsWith(mount); dir = dir.getParent()) {
                    Double quota = v2 ? quotaV2(dir.resolve("cpu.max")) : quotaV1(dir.resolve("cpu.cfs_quota_us"), dir.resolve("cpu.cfs_period_us"));
                    if (quota != null && (least == null || quota < least)) {
                        least = quota;
                    }
                    if (dir.equals(mount)) {
                        break;
                    }
                }
            }
            return least;
        }
        catch (IOException | RuntimeException ex) {
            return null;
        }
    }

    /** {@code cpu.max}: {@code max 100000} (none) or {@code 100000 100000} (quota, period). */
    private static Double quotaV2(Path file) throws IOException {
        if (!java.nio.file.Files.isRegularFile(file)) {
            return null;
        }
        String[] fields = java.nio.file.Files.readString(file).strip().split("\\s+");
        return fields[0].equals("max") ? null : Double.parseDouble(fields[0]) / Double.parseDouble(fields[1]);
    }

    /** {@code cpu.cfs_quota_us}: {@code -1} where none. */
    private static Double quotaV1(Path quotaFile, Path periodFile) throws IOException {
        if (!java.nio.file.Files.isRegularFile(quotaFile) || !java.nio.file.Files.isRegularFile(periodFile)) {
            return null;
        }
        long quota = Long.parseLong(java.nio.file.Files.readString(quotaFile).strip());
        return quota < 0 ? null : quota / Double.parseDouble(java.nio.file.Files.readString(periodFile).strip());
    }

    /** The quota as the conditions write it: {@code , a CPU quota of 1 core's time (cgroup)}, or nothing. */
    String quotaClause() {
        if (cpuQuota == null) {
            return "";
        }
        return ", a CPU quota of %s %s time (cgroup)".formatted(Format.number(cpuQuota), cpuQuota == 1 ? "core's" : "cores'");
    }

    private static String gitCommit(Path repositoryRoot) {
        try {
            Process git = new ProcessBuilder("git", "describe", "--always", "--dirty", "--abbrev=12")
                    .directory(repositoryRoot.toFile()).redirectErrorStream(true).start();
            String out = new String(git.getInputStream().readAllBytes()).trim();
            return git.waitFor() == 0 ? out : "unknown";
        }
        catch (IOException ex) {
            return "unknown";
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /** One sentence saying where the numbers come from, under every table. */
    String conditions() {
        return (workload == null ? "" : "Workload: " + workload.description() + ". ") + ("%s run, %s, commit %s: %d round(s)%s, each row once a round in an order of its own%s; closed model %d threads for %d s (TPS after a %d s "
                + "ramp-up); then the open model at half and at 80 %% of each row's closed-model TPS (at most %d a second), %d s each (a scenario's open model: "
                + "%d req/s)%s. %d cores%s, %d MB, %s, module JVM options %s, Redis %s (%s). %s, "
                + "CPU placement %s.%s").formatted(quick ? "Quick" : "Full", date, gitCommit, repetitions,
                        forks == null || forks < 2 ? "" : " in %d forks (every row started, verified and warmed again for each)".formatted(forks),
                        seed == null ? "" : " (orders from seed %d: -Dbenchmark.seed=%d repeats them)".formatted(seed, seed), threads, durationSeconds, rampupSeconds,
                        openModelCap, latencyDurationSeconds, rate, settledClause(), cores, (cpuModel == null ? "" : " (" + cpuModel + ")") + quotaClause(), memoryMb, moduleJdk, jvmArgs, redisVersion, redis, loadGenerator,
                        cpuPlacement, machineSteadiness == null ? "" : " Machine: " + machineSteadiness.describe() + ".");
    }

    /** What the warm-up found, and no more: every row settled only when every one did. */
    private String settledClause() {
        if (rowsSettled == null) {
            return "";
        }
        return rowsSettled == modules.size() ? "; every row warmed up until it settled first"
                : "; every row warmed up first, %d of %d until it settled".formatted(rowsSettled, modules.size());
    }
}
