package dev.colorbench.benchmark;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

import dev.colorbench.benchmark.plan.BodyCheck;

/**
 * Every knob of a benchmark run, read once from {@code -Dbenchmark.*} through {@link Knobs}, which holds each knob's
 * defaults and says what it means. Quick mode only changes the defaults (a smoke run for CI): a knob given on the
 * command line always wins.
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
     * Reads {@code benchmark.*} from {@code source} (system properties under Maven) through {@link Knobs}, falling back to
     * the environment's {@code REDIS_URL} for Redis, then to the defaults of the chosen mode.
     *
     * @throws IllegalArgumentException when {@code source} has a {@code benchmark.*} property that is not a knob, or a value
     *         its knob does not accept
     */
    public static BenchmarkSettings from(Properties source, Map<String, String> environment) {
        Knobs.requireValid(source);
        boolean quick = Boolean.parseBoolean(Knobs.value(source, false, "quick"));
        Function<String, String> value = key -> Knobs.value(source, quick, key);
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
                        !Knobs.given(source, "warmupLimit")
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
                !Knobs.given(source, "forks") ? Math.min(Integer.parseInt(value.apply("forks")),
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
        return dev.colorbench.testkit.statistics.Statistics.blocks(forks, repetitions).applyAsInt(round);
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
