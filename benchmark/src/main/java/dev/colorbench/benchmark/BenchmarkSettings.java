package dev.colorbench.benchmark;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

import dev.colorbench.benchmark.plan.BodyCheck;

/**
 * Every knob of a benchmark run, read once from {@code -Dbenchmark.*}. Quick mode only changes the
 * defaults (a smoke run for CI): a knob given on the command line always wins.
 *
 * @param modules the module ids to load, in order (a variant as {@code module+variant}); empty: every
 *        module of {@code modules/pom.xml} and its declared variants
 * @param warmupSeconds the most a row is warmed up before it is measured; it stops as soon as its
 *        last {@code warmupWindows} windows of {@code warmupWindowSeconds} no longer climb by more than
 *        {@code warmupTolerancePercent} and the module's JIT was all but idle in them
 * @param warmupCompilingSeconds how long a row's warm-up goes on past {@code warmupSeconds} while the module's JIT is still
 *        compiling or its throughput still climbing: a row measured while it compiles climbs during its first repetition
 *        (docs/measuring.md#warm-up-and-steady-state)
 * @param warmupCompilingRequests the requests (light phase included) a row still compiling or climbing at {@code warmupCompilingSeconds}
 *        is warmed until, at most until {@code warmupLimitSeconds}: the JIT's thresholds count calls, so a row that serves few
 *        requests a second, or runs on a slower machine, needs more seconds for the same code to compile
 * @param warmupLimitSeconds the most any row is warmed at the measured load, whatever it still does
 * @param warmupTogetherSeconds the most a group of rows, one per core, is loaded at a light load before each is warmed at the
 *        measured load (0: not at all): their JITs' compiler threads get most of a core each
 * @param jmeterWarmupSeconds JMeter's own warm-up on each row, a round of them before the first measured run
 * @param redisClusterNodes the Redis Cluster the {@code cluster} scenario measures on ({@code REDIS_CLUSTER_NODES},
 *        {@code host:port} of every master, comma-separated); {@code null}: an embedded cluster of three masters
 * @param databaseUrl the PostgreSQL the database modules read ({@code DATABASE_URL}, a JDBC URL); {@code null}: an embedded one
 * @param reference the module every "x" ratio is taken against, as in the source post: its loop
 * @param moduleJavaHome the JDK the modules run on ({@code benchmark.javaHome}); {@code null}: the one running the benchmark
 * @param scenarios what to run ({@code benchmark.scenario}): {@code headline} (the default), named scenarios, or {@code all}
 * @param scenarioDurationSeconds seconds of each closed-model run of a scenario, which measures many more conditions than the headline
 * @param scenarioRepetitions repetitions of each of a scenario's conditions
 * @param scenarioModules the rows a scenario measures unless {@code benchmark.modules} names them: a scenario starts, warms
 *        and measures every row once per condition (four palette sizes, four distances, five client steps), so it takes one
 *        module per way of paying for a read, not all of them
 * @param cpus where JMeter runs against the servers: {@code shared} cores or {@code split} (see {@code run.CpuPlacement})
 * @param openModelCap the most arrivals a second the headline's open model offers a row, whatever share of its throughput was asked
 * @param servers the servers the {@code servers} scenario compares with the run's Redis ({@code benchmark.servers}, comma-separated):
 *        {@code redis://} URLs of servers the user started, or paths of server executables the run starts; empty: those
 *        {@code benchmark/fetch-servers.sh} fetches from Debian's archive
 * @param profileSeconds seconds of closed-model load on each row, after the measured runs, async-profiler sampling its CPU
 *        within that load only (0: no profiles)
 * @param twin the row measured twice in the headline, as an A/A pair that shows the run's own noise ({@code benchmark.twin};
 *        {@code none}: no pair); only when the row is among the measured ones
 * @param bodyCheck what JMeter checks of each answer under load ({@code whole}, {@code digest} or {@code length}); every row's
 *        answer is compared byte for byte before any load
 * @param workload the user's own workload the {@code workload} run measures the headline under
 *        ({@code benchmark.keys}, {@code benchmark.valueBytes}, {@code benchmark.redisRoundTrip})
 * @param seed where the rounds' orders come from ({@code benchmark.seed}); unset, one drawn for the run. The report prints
 *        it, so that the run's orders can be repeated, and another run draws other orders (docs/measuring.md#rounds-and-intervals)
 * @param forks how many fresh sets of JVMs the headline's rounds are split over ({@code benchmark.forks}): each fork starts,
 *        verifies and warms every row again, then runs its share of the rounds, so that the intervals hold what differs from one
 *        JVM of a module to the next (docs/measuring.md#rounds-and-intervals)
 */
public record BenchmarkSettings(
        boolean quick,
        List<String> modules,
        int repetitions,
        int threads,
        int durationSeconds,
        int rampupSeconds,
        int latencyDurationSeconds,
        int rate,
        int warmupSeconds,
        int warmupCompilingSeconds,
        int warmupCompilingRequests,
        int warmupLimitSeconds,
        int warmupTogetherSeconds,
        int warmupWindowSeconds,
        int warmupWindows,
        double warmupTolerancePercent,
        int jmeterWarmupSeconds,
        double errorThresholdPercent,
        List<String> jvmArgs,
        int healthTimeoutSeconds,
        String redisUrl,
        String redisClusterNodes,
        String databaseUrl,
        String reference,
        Path moduleJavaHome,
        List<String> scenarios,
        int scenarioDurationSeconds,
        int scenarioRepetitions,
        List<String> scenarioModules,
        String cpus,
        boolean dashboards,
        BodyCheck bodyCheck,
        int openModelCap,
        List<String> servers,
        int profileSeconds,
        String twin,
        Workload workload,
        long seed,
        int forks) {

    /** Load generator and modules share this machine; only loopback is ever load-tested. */
    public static final String HOST = "127.0.0.1";

    private static final String PREFIX = "benchmark.";

    /** Defaults of the full run and, where it differs, of quick mode. */
    private static final Map<String, String[]> DEFAULTS = Map.ofEntries(
            Map.entry("modules", new String[] { "" }),
            // Rounds, each row once per round in an order of its own: a ratio is taken within each round, and its interval over the
            // rounds. More, shorter rounds pair rows closer in time and narrow the intervals more than fewer, longer ones
            // (docs/measuring.md#rounds-and-intervals). Quick mode checks that everything works, not how fast: each of its knobs below is
            // the least that still takes every path (a run, a window, a warm-up round), because CI runs every row and scenario with it. A
            // run of 1 s still records every request it started: JMeter lets a request under way at the end finish, and counts it.
            Map.entry("repetitions", new String[] { "8", "1" }),
            // Ten closed-model clients, as in the source post whose loop every ratio is taken against (docs/measuring.md#what-one-run-does).
            Map.entry("threads", new String[] { "10" }),
            // The ramp-up is left out of the figures: fresh JMeter threads climb for a moment, and by its end a run is near its plateau
            // (docs/measuring.md#warm-up-and-steady-state). A run must be long enough that that moment and short drift weigh little,
            // while every second is paid by every row and repetition (docs/measuring.md#rounds-and-intervals).
            Map.entry("duration", new String[] { "5", "1" }),
            Map.entry("rampup", new String[] { "1", "0" }),
            Map.entry("latencyDuration", new String[] { "4", "1" }),
            Map.entry("rate", new String[] { "50" }),
            // After the light phase a row's own warm-up is short: a row whose JIT is quiet but whose throughput has not settled by then rarely
            // settles later, since the machine's own drift moves it. A row still compiling goes on longer, because stopping it early
            // widens the spread of its repetitions (docs/measuring.md#warm-up-and-steady-state).
            Map.entry("warmup", new String[] { "12", "2" }),
            // a loop row's per-request code reaches the JIT's call thresholds many times later than a fast row's
            // (docs/measuring.md#warm-up-and-steady-state)
            Map.entry("warmupCompiling", new String[] { "100", "2" }),
            // past that, a row still compiling or climbing goes on until it has served twice the calls C2's tiered threshold asks of a method
            // each request runs once (15,000), so a slow row or a slow machine gets the calls a fast one gets, within a stated limit
            // (docs/measuring.md#warm-up-and-steady-state)
            Map.entry("warmupCompilingRequests", new String[] { "30000", "0" }),
            // unset in quick mode: the longer of warmup and warmupCompiling; given a longer warmupCompiling, never below it
            Map.entry("warmupLimit", new String[] { "300", "" }),
            // Rows are warmed in pairs, one per core, at a light load until their JITs are quiet: each JVM's one C2 thread then gets most
            // of a core, and the repetitions agree more closely than with rows warmed one after another or all at once
            // (docs/measuring.md#warm-up-and-steady-state).
            Map.entry("warmupTogether", new String[] { "60", "0" }),
            // Throughput alone looks settled too early: a row is warm when its last windows no longer climb and its JIT was all but idle in them
            // (docs/measuring.md#warm-up-and-steady-state).
            Map.entry("warmupWindow", new String[] { "2", "1" }),
            Map.entry("warmupWindows", new String[] { "3", "2" }),
            Map.entry("warmupTolerance", new String[] { "5", "10" }),
            // JMeter starts cold too: a round of these warm-ups, one per row, comes before the first repetition (plan.Schedule), so each
            // row's first repetition follows the other rows' turns like its later ones (docs/measuring.md#warm-up-and-steady-state).
            Map.entry("jmeterWarmup", new String[] { "5", "1" }),
            // A failed closed-model request is a defect, except a store's rare 503, which is a figure of its row
            // (docs/measuring.md#what-one-run-does).
            Map.entry("errorThreshold", new String[] { "0" }),
            // The full run's options gave the MGET modules the shortest pauses and the best p99 (docs/measuring.md#jvm-options). A quick run
            // only checks that every row and scenario works, on CI machines of unknown memory: small heaps, and C1 alone, because most of
            // a module start's CPU goes to its compiler threads.
            Map.entry("jvmArgs", new String[] { "-Xms1g -Xmx1g -XX:+UseParallelGC", "-Xms256m -Xmx256m -XX:+UseParallelGC -XX:TieredStopAtLevel=1" }),
            Map.entry("healthTimeout", new String[] { "120" }),
            Map.entry("redisUrl", new String[] { "" }),
            Map.entry("redisClusterNodes", new String[] { "" }),
            Map.entry("databaseUrl", new String[] { "" }),
            Map.entry("reference", new String[] { "cacheable-loop" }),
            Map.entry("javaHome", new String[] { "" }),
            Map.entry("scenario", new String[] { "headline" }),
            // A scenario compares each row with itself under many conditions, so its runs are shorter and fewer than the headline's
            // (docs/measuring.md#rounds-and-intervals).
            Map.entry("scenarioDuration", new String[] { "6", "1" }),
            Map.entry("scenarioRepetitions", new String[] { "2", "1" }),
            // One row per way of paying for a read: the ceiling, a round trip per key, one MGET on request threads, one MGET on an event
            // loop, many GETs in one flush (docs/scenarios.md#which-rows). Quick: the ceiling, the loop, and one module of each other stack and store.
            Map.entry("scenarioModules", new String[] { "in-memory,cacheable-loop,template-mget,reactive-mget,pipelined-get",
                    "in-memory,cacheable-loop,reactive-mget,jdbc-loop" }),
            // Shared: splitting the cores favours the fastest rows and does not shorten the MGET rows' latency tail
            // (docs/measuring.md#jmeters-own-cost).
            Map.entry("cpus", new String[] { "shared" }),
            // Off: each of JMeter's own dashboards starts a report-generator JVM per row, which lengthens a full run, and the report has every figure.
            Map.entry("dashboards", new String[] { "false" }),
            // The strongest check: a weaker one saves JMeter no measurable CPU (docs/measuring.md#jmeters-own-cost).
            Map.entry("bodyCheck", new String[] { "whole" }),
            // JMeter's open model starts a thread and a connection per arrival: on two shared cores, above this it falls behind its schedule
            // and the failures are the machine's, not the module's (docs/measuring.md#latency-at-a-share-of-throughput).
            Map.entry("openModelCap", new String[] { "1000" }),
            Map.entry("servers", new String[] { "" }),
            // Long enough for a few thousand samples of every row at 1 ms, in the 3 s the window keeps; taken after the measured runs,
            // in no figure (docs/measuring.md#where-the-cpu-goes). Quick: as short as a window allows (2 s), so that CI keeps the
            // profiles working.
            Map.entry("profile", new String[] { "5", "1" }),
            // Every headline run measures its own noise: this row twice, two JVMs of one module, an A/A pair whose ratios would be
            // 1 on a perfect machine (docs/measuring.md#rounds-and-intervals). The default pattern: most users' starting point.
            Map.entry("twin", new String[] { "template-mget" }),
            // The workload run's knobs: unset, the headline's own (the 148 colors, each its own size, Redis on loopback).
            Map.entry("keys", new String[] { "" }),
            Map.entry("valueBytes", new String[] { "" }),
            Map.entry("redisRoundTrip", new String[] { "" }),
            // Each run its own rounds' orders: two runs with fixed orders would repeat the same pairings, and agree more than two runs
            // of a user's (docs/measuring.md#rounds-and-intervals).
            Map.entry("seed", new String[] { "" }),
            // Two JVMs of one module differ by more than the rounds of one JVM show: the rounds are split over fresh JVMs, and every
            // interval spans them (docs/measuring.md#rounds-and-intervals). Quick: one, the least that takes every path.
            Map.entry("forks", new String[] { "2", "1" }));

    public BenchmarkSettings {
        modules = List.copyOf(modules);
        scenarioModules = List.copyOf(scenarioModules);
        servers = List.copyOf(servers);
        jvmArgs = List.copyOf(jvmArgs);
        requirePositive("repetitions", repetitions);
        requirePositive("threads", threads);
        requirePositive("duration", durationSeconds);
        requirePositive("latencyDuration", latencyDurationSeconds);
        requirePositive("rate", rate);
        requirePositive("openModelCap", openModelCap);
        requirePositive("healthTimeout", healthTimeoutSeconds);
        requirePositive("warmupWindow", warmupWindowSeconds);
        requirePositive("warmupWindows", warmupWindows);
        requirePositive("forks", forks);
        if (forks > repetitions) {
            throw new IllegalArgumentException("benchmark.forks (" + forks + ") cannot exceed benchmark.repetitions (" + repetitions
                    + "): each fork runs at least one round");
        }
        if (profileSeconds < 0) {
            throw new IllegalArgumentException("benchmark.profile cannot be negative");
        }
        if (warmupLimitSeconds < Math.max(warmupSeconds, warmupCompilingSeconds)) {
            throw new IllegalArgumentException("benchmark.warmupLimit (" + warmupLimitSeconds + " s) cannot be shorter than benchmark.warmup ("
                    + warmupSeconds + " s) or benchmark.warmupCompiling (" + warmupCompilingSeconds + " s)");
        }
        if (rampupSeconds < 0 || warmupSeconds < 0 || warmupCompilingSeconds < 0 || warmupCompilingRequests < 0 || warmupTogetherSeconds < 0 || jmeterWarmupSeconds < 0 || errorThresholdPercent < 0 || warmupTolerancePercent < 0) {
            throw new IllegalArgumentException("benchmark.rampup, benchmark.warmup, benchmark.warmupCompiling, benchmark.warmupCompilingRequests, benchmark.jmeterWarmup, "
                    + "benchmark.warmupTolerance and benchmark.errorThreshold cannot be negative");
        }
        if (rampupSeconds >= durationSeconds) {
            throw new IllegalArgumentException("benchmark.rampup (" + rampupSeconds + " s) must be shorter than benchmark.duration ("
                    + durationSeconds + " s): throughput is measured after the ramp-up");
        }
    }

    /**
     * Reads {@code benchmark.*} from {@code source} (system properties under Maven), falling back to
     * the environment's {@code REDIS_URL} for Redis, then to the defaults of the chosen mode.
     */
    public static BenchmarkSettings from(Properties source, Map<String, String> environment) {
        if (source.getProperty(PREFIX + "scenarioWarmup") != null) {
            throw new IllegalArgumentException("benchmark.scenarioWarmup is no more: a scenario warms its rows as the headline does "
                    + "(benchmark.warmup, benchmark.warmupCompiling, benchmark.warmupTogether)");
        }
        boolean quick = Boolean.parseBoolean(source.getProperty(PREFIX + "quick", "false"));
        Function<String, String> value = key -> {
            String given = source.getProperty(PREFIX + key);
            if (given != null && !given.isBlank()) {
                return given.trim();
            }
            String[] defaults = DEFAULTS.get(key);
            return quick && defaults.length > 1 ? defaults[1] : defaults[0];
        };
        String redisUrl = value.apply("redisUrl");
        if (redisUrl.isEmpty()) {
            redisUrl = environment.getOrDefault("REDIS_URL", "").trim();
        }
        String redisClusterNodes = value.apply("redisClusterNodes");
        if (redisClusterNodes.isEmpty()) {
            redisClusterNodes = environment.getOrDefault("REDIS_CLUSTER_NODES", "").trim();
        }
        String databaseUrl = value.apply("databaseUrl");
        if (databaseUrl.isEmpty()) {
            databaseUrl = environment.getOrDefault("DATABASE_URL", "").trim();
        }
        return new BenchmarkSettings(quick, words(value.apply("modules"), ","),
                Integer.parseInt(value.apply("repetitions")),
                Integer.parseInt(value.apply("threads")),
                Integer.parseInt(value.apply("duration")),
                Integer.parseInt(value.apply("rampup")),
                Integer.parseInt(value.apply("latencyDuration")),
                Integer.parseInt(value.apply("rate")),
                Integer.parseInt(value.apply("warmup")),
                Integer.parseInt(value.apply("warmupCompiling")),
                Integer.parseInt(value.apply("warmupCompilingRequests")),
                Math.max(value.apply("warmupLimit").isEmpty() ? 0 : Integer.parseInt(value.apply("warmupLimit")),
                        source.getProperty(PREFIX + "warmupLimit", "").isBlank()
                                ? Math.max(Integer.parseInt(value.apply("warmup")), Integer.parseInt(value.apply("warmupCompiling"))) : 0),
                Integer.parseInt(value.apply("warmupTogether")),
                Integer.parseInt(value.apply("warmupWindow")),
                Integer.parseInt(value.apply("warmupWindows")),
                Double.parseDouble(value.apply("warmupTolerance")),
                Integer.parseInt(value.apply("jmeterWarmup")),
                Double.parseDouble(value.apply("errorThreshold")),
                words(value.apply("jvmArgs"), " "),
                Integer.parseInt(value.apply("healthTimeout")),
                redisUrl.isEmpty() ? null : redisUrl,
                redisClusterNodes.isEmpty() ? null : redisClusterNodes,
                databaseUrl.isEmpty() ? null : databaseUrl,
                value.apply("reference"),
                value.apply("javaHome").isEmpty() ? null : Path.of(value.apply("javaHome")),
                words(value.apply("scenario"), ","),
                Integer.parseInt(value.apply("scenarioDuration")),
                Integer.parseInt(value.apply("scenarioRepetitions")),
                words(value.apply("scenarioModules"), ","),
                value.apply("cpus"),
                Boolean.parseBoolean(value.apply("dashboards")),
                BodyCheck.valueOf(value.apply("bodyCheck").toUpperCase(java.util.Locale.ROOT)),
                Integer.parseInt(value.apply("openModelCap")),
                words(value.apply("servers"), ","),
                Integer.parseInt(value.apply("profile")),
                value.apply("twin"),
                Workload.of(value.apply("keys"), value.apply("valueBytes"), value.apply("redisRoundTrip"), words(value.apply("scenario"), ",")),
                value.apply("seed").isEmpty() ? drawnSeed() : Long.parseLong(value.apply("seed")),
                // unset, no more forks than rounds: a run of fewer rounds asks for fewer forks by asking for fewer rounds
                source.getProperty(PREFIX + "forks", "").isBlank() ? Math.min(Integer.parseInt(value.apply("forks")),
                        Integer.parseInt(value.apply("repetitions"))) : Integer.parseInt(value.apply("forks")));
    }

    /**
     * The knobs of a scenario's runs: its shorter closed-model runs (a second of ramp-up, when there is one) and its
     * repetitions, with {@code threads} clients, in one fork. Its warm-up is the headline's: a row measured before it settled
     * gives a scenario's figure that the headline's rule would not (docs/measuring.md#warm-up-and-steady-state).
     */
    public BenchmarkSettings forScenario(int clients) {
        return new BenchmarkSettings(quick, modules, scenarioRepetitions, clients, scenarioDurationSeconds,
                Math.min(rampupSeconds, scenarioDurationSeconds / 2 > 0 ? 1 : 0), latencyDurationSeconds, rate, warmupSeconds,
                warmupCompilingSeconds, warmupCompilingRequests, warmupLimitSeconds, warmupTogetherSeconds, warmupWindowSeconds, warmupWindows, warmupTolerancePercent, jmeterWarmupSeconds, errorThresholdPercent, jvmArgs,
                healthTimeoutSeconds, redisUrl, redisClusterNodes, databaseUrl, reference, moduleJavaHome, scenarios, scenarioDurationSeconds, scenarioRepetitions,
                scenarioModules, cpus, dashboards, bodyCheck, openModelCap, servers, profileSeconds, twin, workload, seed, 1);
    }

    /** The same knobs with another arrival rate for the open model. */
    public BenchmarkSettings withRate(int arrivalsPerSecond) {
        return new BenchmarkSettings(quick, modules, repetitions, threads, durationSeconds, rampupSeconds, latencyDurationSeconds,
                arrivalsPerSecond, warmupSeconds, warmupCompilingSeconds, warmupCompilingRequests, warmupLimitSeconds, warmupTogetherSeconds, warmupWindowSeconds, warmupWindows, warmupTolerancePercent, jmeterWarmupSeconds,
                errorThresholdPercent, jvmArgs, healthTimeoutSeconds, redisUrl, redisClusterNodes, databaseUrl, reference, moduleJavaHome, scenarios,
                scenarioDurationSeconds, scenarioRepetitions, scenarioModules, cpus, dashboards, bodyCheck, openModelCap, servers, profileSeconds, twin, workload, seed, forks);
    }

    /** The fork, from 1, that runs {@code round}: the rounds in blocks, one after another, as even as they divide. */
    public int forkOf(int round) {
        return dev.colorbench.benchmark.results.Statistics.blocks(forks, repetitions).applyAsInt(round);
    }

    /** The rounds {@code fork} runs, in order. */
    public List<Integer> roundsOf(int fork) {
        return java.util.stream.IntStream.rangeClosed(1, repetitions).filter(round -> forkOf(round) == fork).boxed().toList();
    }

    /** A seed for a run that names none: positive, so that it reads the same on the command line that repeats the run. */
    private static long drawnSeed() {
        return new java.security.SecureRandom().nextLong() & Long.MAX_VALUE;
    }

    /** True when the {@code cluster} scenario starts its own Redis Cluster. */
    public boolean embeddedRedisCluster() {
        return redisClusterNodes == null;
    }

    /** True when the benchmark starts its own Redis: the only case where it may own the data. */
    public boolean embeddedRedis() {
        return redisUrl == null;
    }

    private static List<String> words(String text, String separator) {
        return Arrays.stream(text.split(separator)).map(String::trim).filter(word -> !word.isEmpty()).toList();
    }

    private static void requirePositive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException("benchmark." + name + " must be positive, was " + value);
        }
    }
}
