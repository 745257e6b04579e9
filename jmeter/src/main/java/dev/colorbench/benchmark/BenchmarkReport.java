package dev.colorbench.benchmark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Turns the run's results into the report: per module figures (median of repetitions, spread,
 * latency per model, Redis cost), written as report.html, report.md and summary.json, with the
 * measured samples of each module split out beside JMeter's own dashboard.
 */
final class BenchmarkReport {

    private final RunFiles files;

    BenchmarkReport(RunFiles files) {
        this.files = files;
    }

    void write() {
        BenchmarkSettings settings = BenchmarkSettings.load(files.settings());
        Verification verification = Json.read(files.verification(), Verification.class);
        if (!Files.exists(files.jmeterResults())) {
            throw new IllegalStateException("JMeter wrote no results at " + files.jmeterResults());
        }
        ResultsFile results = ResultsFile.read(files.jmeterResults());
        List<ModuleSummary> summaries = summarize(settings, verification, results.samples(), serverTiming());
        copy(files.jmeterResults(), files.benchmark().resolve("results-all.csv"));
        for (PatternModule module : settings.modules()) {
            splitResults(results, module);
        }
        if (settings.dashboards()) {
            new Dashboards(files).generate(settings.modules());
        }
        Environment environment = Environment.collect(files, settings, verification);
        Json.write(files.benchmark().resolve("summary.json"), new Summary(environment, summaries));
        ReportPage page = new ReportPage(settings, environment, summaries);
        RunFiles.write(files.benchmark().resolve("report.md"), page.markdown());
        RunFiles.write(files.benchmark().resolve("report.html"), page.html());
        System.out.println();
        System.out.println(page.consoleTable());
        Supervisor.log("report:  " + files.benchmark().resolve("report.html"));
        Supervisor.log("table:   " + files.benchmark().resolve("report.md"));
        Supervisor.log("data:    " + files.benchmark().resolve("summary.json"));
        Supervisor.log("JMeter dashboards and raw results: " + files.benchmark() + "/<module>/");
    }

    /** The supervisor's timer readings; none (every server figure missing) if it could not write them. */
    private List<ServerTiming.Window> serverTiming() {
        if (!Files.exists(files.serverTiming())) {
            Supervisor.log("no server-side timings at " + files.serverTiming() + ": the report shows them as missing");
            return List.of();
        }
        return List.of(Json.read(files.serverTiming(), ServerTiming.Window[].class));
    }

    /** What summary.json holds: the environment of the run, then one object per module. */
    record Summary(Environment environment, List<ModuleSummary> modules) {
    }

    static List<ModuleSummary> summarize(BenchmarkSettings settings, Verification verification, List<Sample> samples) {
        return summarize(settings, verification, samples, List.of());
    }

    static List<ModuleSummary> summarize(BenchmarkSettings settings, Verification verification, List<Sample> samples,
            List<ServerTiming.Window> serverTiming) {
        Map<String, List<Sample>> byLabel = samples.stream().collect(Collectors.groupingBy(Sample::label));
        List<ModuleSummary> partial = new ArrayList<>();
        for (PatternModule module : settings.modules()) {
            List<ModuleSummary.Run> runs = new ArrayList<>();
            List<Double> tps = new ArrayList<>();
            List<Sample> throughputSamples = new ArrayList<>();
            List<Sample> latencySamples = new ArrayList<>();
            List<Double> latencyRates = new ArrayList<>();
            List<Double> serverThroughput = new ArrayList<>();
            List<Double> serverOpenModel = new ArrayList<>();
            for (int repetition = 1; repetition <= settings.repetitions(); repetition++) {
                for (Phase phase : List.of(Phase.THROUGHPUT, Phase.LATENCY)) {
                    List<Sample> run = byLabel.getOrDefault(new ScheduledRun(module, phase, repetition, 0, 0).label(), List.of());
                    long skip = phase == Phase.THROUGHPUT ? settings.rampupSeconds() * 1000L : 0;
                    RunStatistics statistics = RunStatistics.of(run, skip);
                    ServerTiming.Window window = windowOf(serverTiming, module, phase, repetition);
                    Long serverRequests = window == null ? null : window.requests();
                    // the server must have seen exactly JMeter's requests: more means a reading caught part of another run
                    Double serverMean = serverRequests != null && serverRequests == statistics.samples() ? window.meanMicros() : null;
                    runs.add(new ModuleSummary.Run(phase.label(), repetition, statistics.samples(), statistics.errors(), statistics.tps(),
                            statistics.perSecond(), serverRequests, serverMean));
                    (phase == Phase.THROUGHPUT ? serverThroughput : serverOpenModel).add(serverMean);
                    if (phase == Phase.THROUGHPUT) {
                        tps.add(statistics.tps());
                        throughputSamples.addAll(run);
                    }
                    else {
                        latencyRates.add(statistics.tps());
                        latencySamples.addAll(run);
                    }
                }
            }
            Spread spread = Spread.of(tps);
            RunStatistics closed = RunStatistics.of(throughputSamples, 0);
            RunStatistics open = RunStatistics.of(latencySamples, 0);
            ModuleSummary.Latency closedLatency = withRate(ModuleSummary.Latency.of(closed), spread.median());
            ModuleSummary.Latency openLatency = withRate(ModuleSummary.Latency.of(open), Spread.of(latencyRates).median());
            long total = closed.samples() + open.samples();
            long errors = closed.errors() + open.errors();
            Verification.ModuleCheck check = verification.of(module);
            partial.add(new ModuleSummary(module.id(), module.pattern(), module.stack(), check.port(), check.commands(),
                    check.commandsPerRequest(), check.roundTripsPerRequest(), spread.median(), spread.min(), spread.max(), List.copyOf(tps),
                    null, null, module.seedTps().orElse(null), null, closedLatency, openLatency,
                    ServerTiming.MeanMicros.of(serverThroughput), ServerTiming.MeanMicros.of(serverOpenModel), total, errors,
                    total == 0 ? 0 : errors * 100.0 / total, List.copyOf(runs)));
        }
        Optional<Double> ceiling = medianOf(partial, PatternModule.CEILING);
        Optional<Double> loop = medianOf(partial, PatternModule.BASELINE);
        int seedLoop = PatternModule.BASELINE.seedTps().orElseThrow();
        return partial.stream().map(summary -> new ModuleSummary(summary.module(), summary.pattern(), summary.stack(), summary.port(),
                summary.redisCommands(), summary.redisCommandsPerRequest(), summary.redisRoundTripsPerRequest(), summary.tpsMedian(),
                summary.tpsMin(), summary.tpsMax(), summary.tpsPerRepetition(),
                ceiling.filter(value -> value > 0).map(value -> summary.tpsMedian() * 100 / value).orElse(null),
                loop.filter(value -> value > 0).map(value -> summary.tpsMedian() / value).orElse(null),
                summary.seedTps2019(), summary.seedTps2019() == null ? null : summary.seedTps2019() / (double) seedLoop,
                summary.throughputLatency(), summary.openModelLatency(), summary.serverMeanMicrosThroughput(),
                summary.serverMeanMicrosOpenModel(), summary.samples(), summary.errors(), summary.errorPercent(),
                summary.runs())).toList();
    }

    private static ServerTiming.Window windowOf(List<ServerTiming.Window> windows, PatternModule module, Phase phase, int repetition) {
        return windows.stream()
                .filter(window -> window.module().equals(module.id()) && window.phase().equals(phase.label()) && window.repetition() == repetition)
                .findFirst().orElse(null);
    }

    private static ModuleSummary.Latency withRate(ModuleSummary.Latency latency, double rate) {
        return new ModuleSummary.Latency(latency.meanMs(), latency.p50Ms(), latency.p95Ms(), latency.p99Ms(), latency.maxMs(),
                latency.samples(), latency.errors(), rate);
    }

    private static Optional<Double> medianOf(List<ModuleSummary> summaries, PatternModule module) {
        return summaries.stream().filter(summary -> summary.module().equals(module.id())).map(ModuleSummary::tpsMedian).findFirst();
    }

    /**
     * Fails the build when a measured run recorded no sample (a broken plan passes silently in
     * JMeter) or a module's error rate is above {@code benchmark.errorThreshold}, naming the module.
     */
    static void check(RunFiles files) {
        BenchmarkSettings settings = BenchmarkSettings.load(files.settings());
        Summary summary = Json.read(files.benchmark().resolve("summary.json"), Summary.class);
        List<String> problems = problems(summary.modules(), settings.errorThresholdPercent());
        if (!problems.isEmpty()) {
            throw new IllegalStateException("The benchmark failed:\n  " + String.join("\n  ", problems) + "\nSee "
                    + files.benchmark().resolve("report.html") + " and the module's results.csv");
        }
        Supervisor.log("every measured run has samples and an error rate within " + settings.errorThresholdPercent() + " %");
    }

    static List<String> problems(List<ModuleSummary> modules, double errorThresholdPercent) {
        List<String> problems = new ArrayList<>();
        for (ModuleSummary module : modules) {
            for (ModuleSummary.Run run : module.runs()) {
                if (run.samples() == 0) {
                    problems.add("module %s: %s run %d recorded no sample".formatted(module.module(), run.phase(), run.repetition()));
                }
            }
            if (module.errorPercent() > errorThresholdPercent) {
                problems.add("module %s: %.2f %% errors (%d of %d samples), above the threshold of %s %%".formatted(module.module(),
                        module.errorPercent(), module.errors(), module.samples(), errorThresholdPercent));
            }
        }
        return problems;
    }

    private void splitResults(ResultsFile results, PatternModule module) {
        StringBuilder csv = new StringBuilder(results.header()).append('\n');
        for (Sample sample : results.samples()) {
            ScheduledRun.parseLabel(sample.label())
                    .filter(key -> key.module() == module && key.phase().measured())
                    .ifPresent(key -> csv.append(sample.line()).append('\n'));
        }
        RunFiles.write(files.moduleReport(module).resolve("results.csv"), csv.toString());
    }

    private static void copy(Path from, Path to) {
        try {
            Files.createDirectories(to.getParent());
            Files.copy(from, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** The facts a reader needs to judge the numbers, gathered at report time. */
    record Environment(String date, String gitCommit, String jdk, String jvmArgs, String redisVersion, String redis, int cores,
            long memoryMb, String os, int threads, int durationSeconds, int latencyDurationSeconds, int rate, int rampupSeconds,
            int warmupSeconds, int repetitions, boolean quick, String modules) {

        static Environment collect(RunFiles files, BenchmarkSettings settings, Verification verification) {
            long memory = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                    ? os.getTotalMemorySize() / (1024 * 1024) : -1;
            return new Environment(ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME), gitCommit(files),
                    verification.moduleJvm(), verification.jvmArgs(), verification.redisVersion(), verification.redis(),
                    Runtime.getRuntime().availableProcessors(), memory,
                    System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                    settings.threads(), settings.durationSeconds(), settings.latencyDurationSeconds(), settings.rate(),
                    settings.rampupSeconds(), settings.warmupSeconds(), settings.repetitions(), settings.quick(),
                    PatternModule.ids(settings.modules()));
        }

        private static String gitCommit(RunFiles files) {
            try {
                Process git = new ProcessBuilder("git", "describe", "--always", "--dirty", "--abbrev=12")
                        .directory(files.moduleDirectory().toFile()).redirectErrorStream(true).start();
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
    }
}
