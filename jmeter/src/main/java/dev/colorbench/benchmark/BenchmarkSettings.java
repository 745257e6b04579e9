package dev.colorbench.benchmark;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Every knob of a benchmark run, read once from {@code -Dbenchmark.*} and written beside the run
 * so that each step (plan, supervisor, report) sees the same values. Quick mode only changes the
 * defaults: a knob given on the command line always wins.
 */
record BenchmarkSettings(
        boolean quick,
        List<PatternModule> modules,
        int repetitions,
        int threads,
        int durationSeconds,
        int latencyDurationSeconds,
        int rate,
        int rampupSeconds,
        int warmupSeconds,
        double errorThresholdPercent,
        String jvmArgs,
        int healthTimeoutSeconds,
        int basePort,
        String redisUrl,
        boolean dashboards) {

    /** Load generator and modules share this machine; only loopback is ever load-tested. */
    static final String HOST = "127.0.0.1";

    private static final String PREFIX = "benchmark.";

    /** Defaults of the full run (about 10 minutes on 2 cores) and of quick mode (a smoke run). */
    private static final Map<String, String[]> DEFAULTS = Map.ofEntries(
            Map.entry("modules", new String[] { PatternModule.ids(List.of(PatternModule.values())), null }),
            Map.entry("repetitions", new String[] { "3", "1" }),
            Map.entry("threads", new String[] { "10", "10" }),
            Map.entry("duration", new String[] { "15", "3" }),
            Map.entry("latencyDuration", new String[] { "10", "2" }),
            Map.entry("rate", new String[] { "50", "50" }),
            Map.entry("rampup", new String[] { "2", "0" }),
            Map.entry("warmup", new String[] { "10", "2" }),
            Map.entry("errorThreshold", new String[] { "0", "0" }),
            Map.entry("jvmArgs", new String[] { "-Xms256m -Xmx256m", null }),
            Map.entry("healthTimeout", new String[] { "120", "120" }),
            Map.entry("basePort", new String[] { "8080", "8080" }),
            Map.entry("redisUrl", new String[] { "", "" }),
            Map.entry("dashboards", new String[] { "true", "true" }));

    BenchmarkSettings {
        modules = List.copyOf(modules);
        if (modules.isEmpty()) {
            throw new IllegalArgumentException("benchmark.modules names no module");
        }
        requirePositive("repetitions", repetitions);
        requirePositive("threads", threads);
        requirePositive("duration", durationSeconds);
        requirePositive("latencyDuration", latencyDurationSeconds);
        requirePositive("rate", rate);
        requirePositive("healthTimeout", healthTimeoutSeconds);
        if (rampupSeconds < 0 || warmupSeconds < 0 || errorThresholdPercent < 0) {
            throw new IllegalArgumentException("benchmark.rampup, benchmark.warmup and benchmark.errorThreshold cannot be negative");
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
    static BenchmarkSettings from(Properties source, Map<String, String> environment) {
        boolean quick = Boolean.parseBoolean(source.getProperty(PREFIX + "quick", "false"));
        java.util.function.Function<String, String> value = key -> {
            String given = source.getProperty(PREFIX + key);
            if (given != null && !given.isBlank()) {
                return given.trim();
            }
            String[] defaults = DEFAULTS.get(key);
            return quick && defaults[1] != null ? defaults[1] : defaults[0];
        };
        String redisUrl = value.apply("redisUrl");
        if (redisUrl.isEmpty()) {
            redisUrl = environment.getOrDefault("REDIS_URL", "").trim();
        }
        return new BenchmarkSettings(
                quick,
                Arrays.stream(value.apply("modules").split(",")).filter(id -> !id.isBlank()).map(PatternModule::byId).distinct().toList(),
                Integer.parseInt(value.apply("repetitions")),
                Integer.parseInt(value.apply("threads")),
                Integer.parseInt(value.apply("duration")),
                Integer.parseInt(value.apply("latencyDuration")),
                Integer.parseInt(value.apply("rate")),
                Integer.parseInt(value.apply("rampup")),
                Integer.parseInt(value.apply("warmup")),
                Double.parseDouble(value.apply("errorThreshold")),
                value.apply("jvmArgs"),
                Integer.parseInt(value.apply("healthTimeout")),
                Integer.parseInt(value.apply("basePort")),
                redisUrl.isEmpty() ? null : redisUrl,
                Boolean.parseBoolean(value.apply("dashboards")));
    }

    /** True when the benchmark starts its own Redis: the only case where it may own the data. */
    boolean embeddedRedis() {
        return redisUrl == null;
    }

    int port(PatternModule module) {
        return module.port(basePort);
    }

    List<String> jvmArgList() {
        return Arrays.stream(jvmArgs.trim().split("\\s+")).filter(arg -> !arg.isEmpty()).toList();
    }

    void store(Path file) {
        Properties properties = new Properties();
        properties.setProperty(PREFIX + "quick", String.valueOf(quick));
        properties.setProperty(PREFIX + "modules", PatternModule.ids(modules));
        properties.setProperty(PREFIX + "repetitions", String.valueOf(repetitions));
        properties.setProperty(PREFIX + "threads", String.valueOf(threads));
        properties.setProperty(PREFIX + "duration", String.valueOf(durationSeconds));
        properties.setProperty(PREFIX + "latencyDuration", String.valueOf(latencyDurationSeconds));
        properties.setProperty(PREFIX + "rate", String.valueOf(rate));
        properties.setProperty(PREFIX + "rampup", String.valueOf(rampupSeconds));
        properties.setProperty(PREFIX + "warmup", String.valueOf(warmupSeconds));
        properties.setProperty(PREFIX + "errorThreshold", String.valueOf(errorThresholdPercent));
        properties.setProperty(PREFIX + "jvmArgs", jvmArgs);
        properties.setProperty(PREFIX + "healthTimeout", String.valueOf(healthTimeoutSeconds));
        properties.setProperty(PREFIX + "basePort", String.valueOf(basePort));
        properties.setProperty(PREFIX + "redisUrl", redisUrl == null ? "" : redisUrl);
        properties.setProperty(PREFIX + "dashboards", String.valueOf(dashboards));
        try (Writer writer = Files.newBufferedWriter(file)) {
            properties.store(writer, "benchmark settings of this run");
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    static BenchmarkSettings load(Path file) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("No settings at " + file + ": run the benchmark through ./mvnw -Pbenchmark verify", ex);
        }
        // the stored redisUrl may be empty (embedded); the environment must not override what the run used
        return from(properties, Map.of());
    }

    private static void requirePositive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException("benchmark." + name + " must be positive, was " + value);
        }
    }
}
