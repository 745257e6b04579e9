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
 *        last {@code warmupWindows} windows of {@code warmupWindowSeconds} agree within
 *        {@code warmupTolerancePercent} and the module's JIT was all but idle in them
 * @param warmupCompilingSeconds the most a row's warm-up goes on past {@code warmupSeconds} while the module's JIT is still
 *        compiling: on 2 cores with 16 clients, rows were still compiling at 60 s and climbed during their first measured run
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
 * @param scenarioWarmupSeconds the most a scenario warms each row (instead of {@code warmupSeconds}): a scenario starts its
 *        rows once per condition it must start them in (the keys scenario four times), and compares each row with itself
 * @param scenarioModules the rows a scenario measures unless {@code benchmark.modules} names them: a scenario starts, warms
 *        and measures every row once per condition (four palette sizes, four distances, five client steps), so it takes one
 *        module per way of paying for a read, not all of them
 * @param cpus where JMeter runs against the servers: {@code shared} cores or {@code split} (see {@code run.CpuPlacement})
 * @param openModelCap the most arrivals a second the headline's open model offers a row, whatever share of its throughput was asked
 * @param bodyCheck what JMeter checks of each answer under load ({@code whole}, {@code digest} or {@code length}); every row's
 *        answer was compared byte for byte before any load
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
        int scenarioWarmupSeconds,
        List<String> scenarioModules,
        String cpus,
        boolean dashboards,
        BodyCheck bodyCheck,
        int openModelCap) {

    /** Load generator and modules share this machine; only loopback is ever load-tested. */
    public static final String HOST = "127.0.0.1";

    private static final String PREFIX = "benchmark.";

    /** Defaults of the full run and, where it differs, of quick mode. */
    private static final Map<String, String[]> DEFAULTS = Map.ofEntries(
            Map.entry("modules", new String[] { "" }),
            Map.entry("repetitions", new String[] { "3", "1" }),
            Map.entry("threads", new String[] { "10" }),
            // 8 s measured after the ramp-up: with 6 s (8 - 2) the second or two in which JMeter's fresh threads still climb weighed a third
            // of each run, and a row's repetitions were 10 to 25 % apart; 18 s (20 - 2) roughly halved that, 10 s gave 10.9 % for the median
            // row and 9 s 10.1 % (docs/measuring.md, "the spread"); each second less of 54 runs is most of a minute of the 25 a full run may take.
            // 7 s are measured since 48bd753; since then a 1 s ramp-up instead of 2: with a thread every 0.2 s, the median run was at 93 % of its
            // plateau after 1 s (37171a8, docs/measuring.md, "Where a full run's time goes"), so starting them twice as fast leaves a second less to wait
            Map.entry("duration", new String[] { "8", "3" }),
            Map.entry("rampup", new String[] { "1", "0" }),
            Map.entry("latencyDuration", new String[] { "4", "2" }),
            Map.entry("rate", new String[] { "50" }),
            // after every row was warmed together, each row's own warm-up is short; one that has not settled in 12 s rarely does
            // by 60 (4 of 17 at 6b524ce stopped unsettled at 60 s, their JIT quiet); at 20/60 and 90 s together (b312d84) the warm-up
            // still took 11 of a full run's minutes, its rows 16 to 60 s each after 95 s together; at 12/40 after 65 s together
            // (0b23df7) 10.3 minutes, 16 to 40 s a row, 14 of 19 rows' TPS within 15 % across repetitions; at 12/24 (6423ef2) 8.2
            // minutes, but 15 of 19 rows stopped while their JIT still compiled and 11 of 19 were within 15 %: the 2 minutes cost spread;
            // at 30 s (48bd753, a day the machine was 2.5 times slower) every row stopped compiling, 12 of 18 were lowest in their first
            // repetition, 3 of 18 within 15 % (docs/measuring.md, "Where a full run's time goes")
            Map.entry("warmup", new String[] { "12", "4" }),
            Map.entry("warmupCompiling", new String[] { "40", "4" }),
            // one row per core at 2 clients each until their JITs are quiet, then at the measured load: rows warmed one after another
            // (77f990f: 13.4 minutes for 19 rows) or all at once first (142ea4e: 60 s, then 16 of 18 rows still compiling at 40 s each;
            // 300 s never went quiet) left each JVM's one C2 thread a small share of the cores (docs/measuring.md, "What the warm-up waits for");
            // in pairs (b5e4c44) the median row's range was 9.8 % against 17.0 % on the same VM, the warm-up 12m53s against 11m03s ("Rows warmed in pairs")
            Map.entry("warmupTogether", new String[] { "60", "0" }),
            Map.entry("warmupWindow", new String[] { "2", "1" }),
            Map.entry("warmupWindows", new String[] { "3", "2" }),
            Map.entry("warmupTolerance", new String[] { "5", "10" }),
            // after 3 s a row's first repetition climbed for longer than its later ones; after 5 s it was a row's lowest in 4 of 17 rows (6b524ce), no
            // more often than chance; since a round of them comes before the first repetition (plan.Schedule), JMeter has had about 90 s of load
            // before the first measured run
            Map.entry("jmeterWarmup", new String[] { "5", "1" }),
            Map.entry("errorThreshold", new String[] { "0" }),
            // the full run's on evidence (README, "JVM options"); a quick run starts the same modules on a CI machine, where 1 GB each may not fit,
            // and only checks that every row and scenario works: C1 alone (as IDEs start Spring Boot) because more than half of a module start's CPU
            // went to its compiler threads (docs/measuring.md), and a quick run starts 46 modules; its figures are not to be read
            Map.entry("jvmArgs", new String[] { "-Xms1g -Xmx1g -XX:+UseParallelGC", "-Xms256m -Xmx256m -XX:+UseParallelGC -XX:TieredStopAtLevel=1" }),
            Map.entry("healthTimeout", new String[] { "120" }),
            Map.entry("redisUrl", new String[] { "" }),
            Map.entry("redisClusterNodes", new String[] { "" }),
            Map.entry("databaseUrl", new String[] { "" }),
            Map.entry("reference", new String[] { "cacheable-loop" }),
            Map.entry("javaHome", new String[] { "" }),
            Map.entry("scenario", new String[] { "headline" }),
            Map.entry("scenarioDuration", new String[] { "6", "2" }),
            Map.entry("scenarioRepetitions", new String[] { "2", "1" }),
            Map.entry("scenarioWarmup", new String[] { "20", "4" }),
            // benchmark/README.md, "Which rows": the ceiling, a round trip per key, one MGET on request threads, one MGET on an event loop, many GETs in one
            // flush; quick: the ceiling, the loop and one module of each other stack and store (WebFlux, PostgreSQL)
            Map.entry("scenarioModules", new String[] { "in-memory,cacheable-loop,template-mget,reactive-mget,pipelined-get",
                    "in-memory,cacheable-loop,reactive-mget,jdbc-loop" }),
            Map.entry("cpus", new String[] { "shared" }),
            // JMeter's own dashboard per row: a report-generator JVM each, two minutes of a full run; the report has every figure
            Map.entry("dashboards", new String[] { "false" }),
            Map.entry("bodyCheck", new String[] { "whole" }),
            // JMeter's open model starts a thread and a connection per arrival: on 2 shared cores, asked for 2,706 a second it sent
            // 1,145 and the module it loaded failed 10 % (the machine's, not the module's, limit)
            Map.entry("openModelCap", new String[] { "1000" }));

    public BenchmarkSettings {
        modules = List.copyOf(modules);
        scenarioModules = List.copyOf(scenarioModules);
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
        if (rampupSeconds < 0 || warmupSeconds < 0 || warmupCompilingSeconds < 0 || warmupTogetherSeconds < 0 || scenarioWarmupSeconds < 0 || jmeterWarmupSeconds < 0 || errorThresholdPercent < 0 || warmupTolerancePercent < 0) {
            throw new IllegalArgumentException("benchmark.rampup, benchmark.warmup, benchmark.warmupCompiling, benchmark.scenarioWarmup, benchmark.jmeterWarmup, benchmark.warmupTolerance "
                    + "and benchmark.errorThreshold cannot be negative");
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
                Integer.parseInt(value.apply("scenarioWarmup")),
                words(value.apply("scenarioModules"), ","),
                value.apply("cpus"),
                Boolean.parseBoolean(value.apply("dashboards")),
                BodyCheck.valueOf(value.apply("bodyCheck").toUpperCase(java.util.Locale.ROOT)),
                Integer.parseInt(value.apply("openModelCap")));
    }

    /**
     * The knobs of a scenario's runs: its shorter closed-model runs (a second of ramp-up, when there
     * is one), its shorter warm-up (not extended while the JIT compiles, its light phase no longer: a scenario compares
     * each row with itself, and warms every row once per condition) and its repetitions, with {@code threads} clients.
     */
    public BenchmarkSettings forScenario(int clients) {
        return new BenchmarkSettings(quick, modules, scenarioRepetitions, clients, scenarioDurationSeconds,
                Math.min(rampupSeconds, scenarioDurationSeconds / 2 > 0 ? 1 : 0), latencyDurationSeconds, rate, scenarioWarmupSeconds,
                scenarioWarmupSeconds, Math.min(warmupTogetherSeconds, scenarioWarmupSeconds), warmupWindowSeconds, warmupWindows, warmupTolerancePercent, jmeterWarmupSeconds, errorThresholdPercent, jvmArgs,
                healthTimeoutSeconds, redisUrl, redisClusterNodes, databaseUrl, reference, moduleJavaHome, scenarios, scenarioDurationSeconds, scenarioRepetitions,
                scenarioWarmupSeconds, scenarioModules, cpus, dashboards, bodyCheck, openModelCap);
    }

    /** The same knobs with another arrival rate for the open model. */
    public BenchmarkSettings withRate(int arrivalsPerSecond) {
        return new BenchmarkSettings(quick, modules, repetitions, threads, durationSeconds, rampupSeconds, latencyDurationSeconds,
                arrivalsPerSecond, warmupSeconds, warmupCompilingSeconds, warmupTogetherSeconds, warmupWindowSeconds, warmupWindows, warmupTolerancePercent, jmeterWarmupSeconds,
                errorThresholdPercent, jvmArgs, healthTimeoutSeconds, redisUrl, redisClusterNodes, databaseUrl, reference, moduleJavaHome, scenarios,
                scenarioDurationSeconds, scenarioRepetitions, scenarioWarmupSeconds, scenarioModules, cpus, dashboards, bodyCheck, openModelCap);
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
