package dev.colorbench.benchmark.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.Json;
import dev.colorbench.benchmark.plan.Phase;
import dev.colorbench.benchmark.results.Arrivals;
import dev.colorbench.benchmark.results.RunStatistics;
import dev.colorbench.benchmark.results.Spread;
import tools.jackson.databind.SerializationFeature;

/**
 * What the report templates show, every figure already written out: the templates only lay it out.
 * A figure that was not measured reads "missing", one that does not apply "n/a".
 */
final class ReportView {

    private final BenchmarkSettings settings;

    private final Environment environment;

    private final List<ModuleSummary> summaries;

    private final Floor floor;

    private final String command;

    ReportView(BenchmarkSettings settings, Environment environment, List<ModuleSummary> summaries, String command) {
        this(settings, environment, summaries, null, command);
    }

    ReportView(BenchmarkSettings settings, Environment environment, List<ModuleSummary> summaries, Floor floor, String command) {
        this.settings = settings;
        this.environment = environment;
        this.summaries = summaries;
        this.floor = floor;
        this.command = command;
    }

    Map<String, Object> markdown(List<Section> sections) {
        Map<String, Object> view = new LinkedHashMap<>();
        // the first line: which run, so that a reader knows what the chart under it is of before reading it
        view.put("mode", environment.quick() ? "Quick run" : "Full run");
        view.put("command", command);
        view.put("commit", environment.gitCommit());
        view.put("machine", "%d cores, %s MB, %s".formatted(environment.cores(), Format.grouped(environment.memoryMb()), environment.os()));
        view.put("conditions", environment.conditions());
        view.put("floor", floor == null ? null : floor.sentence());
        view.put("rate", settings.rate());
        view.put("textChart", textChart());
        view.put("reference", settings.reference());
        view.put("headline", !summaries.isEmpty());
        view.put("rows", summaries.stream().map(this::row).toList());
        view.put("ranges", ranges());
        List<Map<String, Object>> ranking = ranking();
        view.put("ranking", ranking);
        // one round gives intervals of no width: nothing would ever be level, so a quick run ranks nothing
        view.put("hasRanking", ranking.size() > 1 && summaries.stream().anyMatch(m -> m.tps() != null && m.tps().rounds() > 1));
        view.put("sections", sections.stream().map(ReportView::section).toList());
        return view;
    }

    /**
     * How far each row's figures may be off, and how far the run's own noise went: the median row's 95 % intervals, the A/A
     * twin's ratios to its row, the machine's own steadiness, which rows settled in their warm-up and which measured runs
     * still climbed ({@link #warmupVerdict}); {@code null} with fewer than two rounds. Each sentence says only what this
     * run showed (docs/measuring.md#rounds-and-intervals).
     */
    String ranges() {
        List<ModuleSummary> rounds = summaries.stream().filter(summary -> summary.tps() != null && summary.tps().rounds() > 1).toList();
        List<ModuleSummary> patterns = rounds.stream().filter(summary -> summary.twinOf() == null).toList();
        if (rounds.isEmpty()) {
            return null;
        }
        Spread tps = Spread.of(patterns.stream().map(summary -> summary.tps().halfWidthPercent()).toList());
        Spread cpu = Spread.of(patterns.stream().filter(summary -> summary.cpuMicros() != null).map(summary -> summary.cpuMicros().halfWidthPercent()).toList());
        int forks = environment == null || environment.forks() == null ? 1 : environment.forks();
        String ceiling = unsettledCeiling();
        StringBuilder text = new StringBuilder(ceiling).append((forks > 1
                ? "Each figure with its 95 %% interval over %d rounds in %d forks, each fork a fresh JVM of every row (Student's t over the fork means, their spread pooled across the rows); a ratio is taken within each round, and two rows are apart only where its interval excludes 1."
                        .formatted(rounds.stream().mapToInt(summary -> summary.tps().rounds()).max().orElse(0), forks)
                : "Each figure with its interval over %d rounds in one JVM a row, which cannot show how JVMs differ: no row is ranked apart."
                        .formatted(rounds.stream().mapToInt(summary -> summary.tps().rounds()).max().orElse(0))));
        text.append(tps == null ? "" : " The median row's interval: ±%s of its TPS%s.".formatted(Format.percent(tps.median()),
                cpu == null ? "" : ", ±%s of its CPU per request".formatted(Format.percent(cpu.median()))));
        summaries.stream().filter(summary -> summary.twinOf() != null).forEach(twin -> text.append(
                " The run's own noise, A/A: %s against %s, the same module in two JVMs: TPS %s, CPU per request %s%s.".formatted(twin.module(),
                        twin.twinOf(), interval(twin.twinTpsRatio(), Format::ratio, "missing"), interval(twin.twinCpuRatio(), Format::ratio, "missing"),
                        aaVerdict(twin))));
        if (environment.machineSteadiness() != null) {
            text.append(" The machine itself, for the same work in windows as long as one run: %s %% as arithmetic, %s %% as reads from memory.".formatted(
                    Format.number(environment.machineSteadiness().arithmetic().rangePercent()),
                    Format.number(environment.machineSteadiness().memoryReads().rangePercent())));
        }
        // a bound broken beyond the run's noise says the measurement, not the pattern, is off: printed only where it happened
        List<String> broken = new ArrayList<>();
        rounds.stream().filter(m -> m.percentOfCeilingInterval() != null && m.percentOfCeilingInterval().low() > 100)
                .forEach(m -> broken.add(m.module() + " above its ceiling"));
        // the floor bounds the rows that read Redis on every request; a near cache or the ceiling lies below it by design
        rounds.stream().filter(m -> m.floorRatioInterval() != null && m.floorRatioInterval().high() < 1 && m.redisRoundTripsPerRequest() != null
                && m.redisRoundTripsPerRequest() >= 1).forEach(m -> broken.add(m.module() + " below the floor"));
        if (!broken.isEmpty()) {
            text.append(" Outside a bound, beyond the interval: %s.".formatted(String.join(", ", broken)));
        }
        List<ModuleSummary> warmed = rounds.stream().filter(summary -> summary.warmup() != null).toList();
        return text + warmupVerdict(warmed.stream().map(ModuleSummary::module).toList(),
                warmed.stream().filter(summary -> !summary.warmup().steady()).map(ModuleSummary::module).toList(),
                rounds.stream().mapToInt(summary -> summary.tps().rounds()).sum(),
                rounds.stream().filter(summary -> summary.climbingRounds() > 0)
                        .map(summary -> summary.module() + " (" + summary.climbingRounds() + ")").toList());
    }

    /**
     * The rows in the one ranking ({@link Ranking}): by the CPU one request costs the module and its store, cheapest first, a
     * row level with the one before it where their paired ratio's interval holds 1. Beside it, the requests one core serves at that
     * cost, x floor, and this machine's throughput as a share of the ceiling's (docs/measuring.md#the-ranking).
     */
    List<Map<String, Object>> ranking() {
        Map<String, ModuleSummary> byId = new LinkedHashMap<>();
        summaries.forEach(m -> byId.put(m.module(), m));
        List<Map<String, Object>> ranking = new ArrayList<>();
        for (Ranking.Place place : Ranking.ofSummaries(summaries, settings::forkOf)) {
            ModuleSummary m = byId.get(place.id());
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("rank", place.rank());
            row.put("module", m.module());
            row.put("cpu", interval(m.cpuMicros(), ReportView::micros, "missing"));
            row.put("perCore", perCore(m.cpuMicros()));
            row.put("floorRatio", interval(m.floorRatioInterval(), Format::ratio, "n/a"));
            row.put("percentOfCeiling", interval(m.percentOfCeilingInterval(), ReportView::share, "n/a"));
            row.put("ratio", interval(m.ratioToReferenceInterval(), Format::ratio, "n/a"));
            row.put("level", place.levelWith() == null ? "" : "level with " + place.levelWith());
            ranking.add(row);
        }
        return ranking;
    }

    /**
     * Every row in the one ranking's order, each with its rank (the A/A twin, and a row without a cost, after the ranked row
     * it follows, with no rank), for report.html's short table.
     */
    List<Map<String, Object>> rankedRows() {
        List<Ranking.Place> places = Ranking.ofSummaries(summaries, settings::forkOf);
        List<ModuleSummary> ordered = new ArrayList<>();
        for (Ranking.Place place : places) {
            summaries.stream().filter(m -> m.module().equals(place.id())).forEach(ordered::add);
            summaries.stream().filter(m -> place.id().equals(m.twinOf())).forEach(ordered::add);
        }
        summaries.stream().filter(m -> !ordered.contains(m)).forEach(ordered::add);
        return ordered.stream().map(m -> {
            Map<String, Object> row = row(m);
            Ranking.Place place = places.stream().filter(p -> p.id().equals(m.module())).findFirst().orElse(null);
            row.put("rank", place == null ? "" : String.valueOf(place.rank()));
            row.put("level", place == null ? (m.twinOf() == null ? "" : "A/A twin of " + m.twinOf())
                    : place.levelWith() == null ? "" : "level with " + place.levelWith());
            row.put("perCoreInterval", perCore(m.cpuMicros()));
            return row;
        }).toList();
    }

    /**
     * The requests a second one core serves at a row's CPU per request, module and store, with the interval that follows
     * from the cost's: {@code 11,400 (10,900-11,800)}.
     */
    static String perCore(dev.colorbench.testkit.statistics.Interval cpu) {
        if (cpu == null || cpu.estimate() <= 0 || cpu.low() <= 0) {
            return "missing";
        }
        return interval(new dev.colorbench.testkit.statistics.Interval(1e6 / cpu.estimate(), 1e6 / cpu.high(), 1e6 / cpu.low(), cpu.rounds()),
                Format::grouped, "missing");
    }

    /** A share in percent as the tables write it, one decimal at most: {@code 54.3}, {@code 100}. */
    static String share(double percent) {
        return Format.number(Math.round(percent * 10) / 10.0);
    }

    /** Whether the A/A pair came out level, as it should: both its intervals hold 1. */
    private static String aaVerdict(ModuleSummary twin) {
        boolean level = twin.twinTpsRatio() != null && twin.twinTpsRatio().contains(1) && twin.twinCpuRatio() != null && twin.twinCpuRatio().contains(1);
        return level ? "; both intervals hold 1, as they should" : "; not both intervals hold 1: two JVMs of one module differed by more than the rounds' noise";
    }

    /**
     * Whether the rows were warm when measured: which rows did not settle in their warm-up (their JIT still compiling, or
     * their throughput still climbing), and which measured runs climbed, their first half serving more than
     * {@value RunStatistics#CLIMB_PERCENT} % below their second. Each is named; nothing is claimed that the run did not show.
     */
    static String warmupVerdict(List<String> rows, List<String> unsettled, int runs, List<String> climbing) {
        if (rows.isEmpty()) {
            return "";
        }
        String settled = unsettled.isEmpty() ? " Warm-up: all %d rows settled (JIT quiet, throughput no longer climbing).".formatted(rows.size())
                : " Warm-up: %d of %d rows settled (JIT quiet, throughput no longer climbing); not settled: %s.".formatted(rows.size() - unsettled.size(),
                        rows.size(), String.join(", ", unsettled));
        String climbed = climbing.isEmpty() ? " No measured run climbed (first half more than %s %% below its second).".formatted(
                Format.number(RunStatistics.CLIMB_PERCENT))
                : " Measured runs that climbed (first half more than %s %% below the second), of %d: %s.".formatted(
                        Format.number(RunStatistics.CLIMB_PERCENT), runs, String.join(", ", climbing));
        return settled + climbed;
    }

    private static Map<String, Object> section(Section section) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", section.id());
        view.put("title", section.title());
        view.put("intro", section.intro());
        view.put("header", section.header().stream().map(cell -> Map.of("cell", cell)).toList());
        view.put("separator", section.header().stream().map(cell -> Map.of("cell", "---")).toList());
        // a cell that names a page beside the report (a row's flame graph) links to it
        view.put("rows", section.rows().stream().map(row -> Map.of("cells", row.stream()
                .map(cell -> Map.<String, Object>of("cell", cell, "link", cell.matches("[\\w./+@-]+\\.html") ? cell : false)).toList())).toList());
        view.put("charts", section.charts().stream().map(ReportView::chartView).toList());
        view.put("notes", section.notes().stream().map(note -> Map.of("note", note)).toList());
        return view;
    }

    private static Map<String, Object> chartView(Section.Chart chart) {
        return Map.of("id", chart.id(), "title", chart.title(), "height", height(chart));
    }

    Map<String, Object> html(List<Section> sections, String chartJs) {
        Map<String, Object> view = markdown(sections);
        List<Section.Chart> headlineCharts = headlineCharts();
        // the headline chart (headline.js) opens the page; these follow the detailed table
        List<Section.Chart> more = headlineCharts.stream().skip(1).toList();
        List<Section.Chart> charts = new ArrayList<>(more);
        sections.forEach(section -> charts.addAll(section.charts()));
        view.put("chartConfigs", chartsJson(charts));
        view.put("moreHeadlineCharts", more.stream().map(ReportView::chartView).toList());
        view.put("headlineHeight", Math.max(300, summaries.size() * 30 + 110));
        view.put("chartJs", chartJs);
        view.put("headlineJs", Report.headlineJs());
        view.put("headlineData", Headline.data(Headline.summary(environment, summaries)));
        view.put("verdict", verdict());
        view.put("rankedRows", rankedRows());
        view.put("dashboards", settings.dashboards());
        view.put("failures", summaries.stream().filter(summary -> !summary.failures().isEmpty())
                .map(summary -> Map.of("module", summary.module(), "reasons", summary.failures().entrySet().stream()
                        .map(reason -> Map.of("reason", reason.getKey(), "count", reason.getValue())).toList()))
                .toList());
        view.put("environment", environmentRows());
        return view;
    }

    private Map<String, Object> row(ModuleSummary m) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("module", m.module());
        row.put("pattern", m.pattern());
        row.put("stack", m.stack());
        row.put("warmup", m.warmup() == null ? "none" : "%s s, %s (%s)".formatted(Format.number(m.warmup().seconds()),
                m.warmup().steady() ? "steady" : "NOT steady", m.warmup().lastWindowsTps().stream().map(Format::grouped)
                        .collect(Collectors.joining(" / ")) + " requests/s; JIT " + Format.grouped(m.warmup().jitMillis()) + " ms in them")
                + (m.warmup().errors() == 0 ? "" : ", %s of %s failed".formatted(Format.grouped(m.warmup().errors()), Format.grouped(m.warmup().requests()))));
        row.put("redis", m.storeWork());
        row.put("roundTrips", or(m.storeRoundTripsPerRequest(), Format::number, "n/a"));
        row.put("p99", p99(m.openModelLatency()));
        row.put("tps", interval(m.tps(), Format::grouped, "missing"));
        row.put("percentOfCeiling", interval(m.percentOfCeilingInterval(), ReportView::share, "n/a"));
        row.put("floorRatio", interval(m.floorRatioInterval(), Format::ratio, "n/a"));
        row.put("ratio", interval(m.ratioToReferenceInterval(), Format::ratio, "n/a"));
        row.put("ratioToMget", or(m.ratioToMget(), Format::ratio, "n/a"));
        row.put("cpuRatioToMget", or(m.cpuRatioToMget(), Format::ratio, "n/a"));
        row.put("cpu", cpu(m));
        row.put("perCore", or(m.cpu() == null ? null : m.cpu().requestsPerCoreSecond(), Format::grouped, "missing"));
        row.put("cpuModule", spread(m.cpu() == null ? null : m.cpu().moduleMicros(), ReportView::micros));
        row.put("cpuStore", spread(m.cpu() == null ? null : m.cpu().storeMicros(), ReportView::micros));
        row.put("cpuJmeter", spread(m.cpu() == null ? null : m.cpu().jmeterMicros(), ReportView::micros));
        row.put("steadiness", steadiness(m));
        row.put("sourcePost", m.sourcePostTps() == null ? "-"
                : or(m.sourcePostRatioToReference(), Format::ratio, "n/a") + " (" + m.sourcePostTps() + " TPS)");
        row.put("openLatency", openLatency(m.openModelLatency()));
        row.put("highLatency", openLatency(m.highLoadLatency()));
        row.put("closedLatency", latency(m.throughputLatency()));
        row.put("serverOpen", spread(m.serverMeanMicrosOpenModel(), Format::grouped));
        row.put("serverClosed", spread(m.serverMeanMicrosThroughput(), Format::grouped));
        row.put("allocation", m.allocatedBytesPerRequest() == null ? "missing"
                : Format.grouped(m.allocatedBytesPerRequest().median() / 1024) + " KB");
        row.put("gc", m.gc().pausesPerSecond() == null ? "missing" : "%s/s, %s ms/s, %s".formatted(
                Format.number(Math.round(m.gc().pausesPerSecond().median() * 10) / 10.0),
                Format.number(Math.round(m.gc().pauseMillisPerSecond().median() * 10) / 10.0),
                m.gc().meanPauseMillis() == null ? "no pause" : Format.number(Math.round(m.gc().meanPauseMillis() * 10) / 10.0) + " ms mean"));
        row.put("staleness", m.staleness() == null ? null : m.staleness().neverServed() == m.staleness().writes()
                ? "none of %d writes served".formatted(m.staleness().writes()) : "median %s ms, p90 %s ms, max %s ms over %d writes%s".formatted(
                Format.number(Math.round(m.staleness().medianMillis() * 10) / 10.0), Format.number(Math.round(m.staleness().p90Millis() * 10) / 10.0),
                Format.number(Math.round(m.staleness().maxMillis() * 10) / 10.0), m.staleness().writes(),
                m.staleness().neverServed() == 0 ? "" : ", %d of them never served".formatted(m.staleness().neverServed())));
        row.put("knownStale", m.knownStale());
        row.put("tuning", m.tuning());
        boolean stock = m.tuning() != null && m.tuning().startsWith(Summaries.STOCK);
        row.put("stock", stock);
        row.put("tuned", m.tuning() != null && !stock);
        row.put("errors", "%.2f %%".formatted(m.errorPercent()));
        row.put("closedFailed", closedFailed(m));
        row.put("samples", Format.grouped(m.samples()));
        return row;
    }

    /**
     * The report's first sentences, from the figures alone and in the one ranking ({@link Ranking}): the cheapest rows per
     * request (every row level with the first), the cheapest that asks its store on every request, and the reference row;
     * {@code null} without a measured row. Throughput is this machine's, JMeter sharing its cores: the tables give it, named so.
     */
    String verdict() {
        return verdictText() == null ? null : unsettledCeiling() + verdictText();
    }

    /**
     * {@code "The ceiling, in-memory, did not settle ... "} when the ceiling row did not settle in its warm-up, else empty: the
     * first thing the report says then, since every share of the ceiling and every x floor is taken against it.
     */
    String unsettledCeiling() {
        return summaries.stream().filter(m -> "ceiling".equalsIgnoreCase(m.role()) && m.settings().isEmpty() && m.warmup() != null && !m.warmup().steady())
                .findFirst().map(m -> "The ceiling, %s, did not settle in its warm-up: every share of the ceiling and every x floor is taken against a row still warming. "
                        .formatted(m.module())).orElse("");
    }

    private String verdictText() {
        Map<String, ModuleSummary> byId = new LinkedHashMap<>();
        summaries.forEach(m -> byId.put(m.module(), m));
        List<Ranking.Place> places = Ranking.ofSummaries(summaries, settings::forkOf);
        if (places.isEmpty()) {
            return null;
        }
        List<String> first = places.stream().filter(place -> place.rank() == 1).map(Ranking.Place::id).toList();
        ModuleSummary cheapest = byId.get(first.get(0));
        StringBuilder verdict = new StringBuilder("Cheapest per request: %s, %s µs of CPU a request, module and store; one core serves %s requests a second at that cost%s."
                .formatted(cheapest.module(), interval(cheapest.cpuMicros(), ReportView::micros, "missing"), perCore(cheapest.cpuMicros()),
                        first.size() == 1 ? "" : " (level with it: " + String.join(", ", first.subList(1, first.size())) + ")"));
        places.stream().map(place -> byId.get(place.id()))
                .filter(m -> m.storeRoundTripsPerRequest() != null && m.storeRoundTripsPerRequest() >= 1 && m.knownStale() == null)
                .findFirst().filter(m -> m != cheapest).ifPresent(m -> verdict.append(" Cheapest that asks its store on every request: %s, %s µs, rank %d."
                        .formatted(m.module(), interval(m.cpuMicros(), ReportView::micros, "missing"),
                                places.stream().filter(place -> place.id().equals(m.module())).findFirst().orElseThrow().rank())));
        Optional<ModuleSummary> reference = places.stream().map(place -> byId.get(place.id())).filter(m -> m.module().equals(settings.reference())).findFirst();
        reference.ifPresent(m -> verdict.append(" %s, %s, costs %s µs a request.".formatted(m.module(), cost(m),
                interval(m.cpuMicros(), ReportView::micros, "missing"))));
        return verdict.toString();
    }

    /** The closed model's failed requests: {@code none}, or {@code 1 of 73,530, 1 answered 503}. */
    static String closedFailed(ModuleSummary m) {
        ModuleSummary.Latency closed = m.throughputLatency();
        if (closed.errors() == 0) {
            return "none";
        }
        long unavailable = Summaries.unavailable(m.closedModelFailures());
        return "%s of %s%s".formatted(Format.grouped(closed.errors()), Format.grouped(closed.samples()),
                unavailable == 0 ? "" : ", %s answered 503".formatted(Format.grouped(unavailable)));
    }

    /**
     * {@code 61 + 24 = 85 (83-88)}: the module's and the store's medians over the rounds, and their sum's median with its
     * 95 % interval. The sum is the median of each round's sum, so the three need not add up exactly.
     */
    private static String cpu(ModuleSummary m) {
        ModuleSummary.Cpu cpu = m.cpu();
        if (cpu == null || cpu.totalMicros() == null || m.cpuMicros() == null) {
            return "missing";
        }
        return "%s + %s = %s".formatted(micros(cpu.moduleMicros().median()), micros(cpu.storeMicros().median()),
                interval(m.cpuMicros(), ReportView::micros, "missing"));
    }

    /** {@code 25.60 (24.10-26.80)}: a figure and its 95 % interval over the rounds; the figure alone from a single round. */
    static String interval(dev.colorbench.testkit.statistics.Interval interval, Function<Double, String> format, String otherwise) {
        if (interval == null) {
            return otherwise;
        }
        return interval.rounds() < 2 ? format.apply(interval.estimate())
                : "%s (%s-%s)".formatted(format.apply(interval.estimate()), format.apply(interval.low()), format.apply(interval.high()));
    }

    /** Microseconds: one decimal under 10, whole above. */
    static String micros(double micros) {
        return micros < 10 ? Format.number(Math.round(micros * 10) / 10.0) : Format.grouped(micros);
    }

    /** How far apart the repetitions were, as a share of the median: of the TPS and of the CPU per request. */
    private static String steadiness(ModuleSummary m) {
        Double tps = m.tpsMedian() == null || m.tpsMedian() <= 0 || m.tpsPerRepetition().size() < 2 ? null
                : (m.tpsMax() - m.tpsMin()) * 100 / m.tpsMedian();
        Double cpu = m.cpu() == null || m.cpu().totalMicros() == null || m.cpu().totalMicros().measured() < 2 ? null
                : m.cpu().totalMicros().rangePercent();
        return "%s / %s".formatted(or(tps, Format::percent, "n/a"), or(cpu, Format::percent, "n/a"));
    }

    /**
     * The first table's p99 at half load: from each arrival's due time, then the module's own, in µs, JMeter's whole ms in
     * brackets; the share of arrivals that failed or were dropped when any were, and "overloaded" where the row did not keep
     * up ({@link Arrivals#overloaded}): its p99 is then a queue's, not the pattern's at half load. "≥" marks figures that
     * count dropped arrivals, which waited at least the run's drain.
     */
    static String p99(ModuleSummary.Latency latency) {
        String module = latency.p99Micros() == null ? "missing" : micros(latency.p99Micros()) + " µs";
        String jmeter = " (" + (latency.p99Ms() == null ? "missing" : latency.p99Ms() + " ms") + ")";
        Arrivals arrivals = latency.arrivals();
        if (arrivals == null) {
            double failedPercent = latency.samples() == 0 ? 0 : latency.errors() * 100.0 / latency.samples();
            return module + jmeter + (latency.errors() == 0 ? "" : "; %s failed".formatted(Format.percent(failedPercent)));
        }
        return fromArrival(arrivals, arrivals.p99Micros()) + " / " + module + jmeter
                + (arrivals.failed() == 0 ? "" : "; %s failed".formatted(Format.percent(arrivals.failed() * 100.0 / arrivals.scheduled())))
                + (arrivals.dropped() == 0 ? "" : "; %s dropped".formatted(Format.percent(arrivals.dropped() * 100.0 / arrivals.scheduled())))
                + (arrivals.overloaded() ? ", overloaded" : "");
    }

    /** A latency from the arrivals' due time, in µs; "≥" when it counts dropped arrivals at the least they waited. */
    private static String fromArrival(Arrivals arrivals, Long micros) {
        return micros == null ? "missing" : (arrivals.dropped() > 0 ? "≥ " : "") + micros(micros);
    }

    /**
     * An open-model run: the arrivals scheduled and the rate offered, what became of them, their p50 / p90 / p99 / max from
     * their due time, the module's own p50 / p90 / p99 / p99.9 in µs and JMeter's p50 / p99 in ms (both the request alone),
     * and why the row was overloaded when it was.
     */
    private static String openLatency(ModuleSummary.Latency latency) {
        if (latency.samples() == 0 && latency.offeredPerSecond() != null && latency.p50Ms() == null && latency.ratePerSecond() == null) {
            return "the step before, at %s/s: the open model's cap makes the two one".formatted(Format.grouped(latency.offeredPerSecond()));
        }
        if (latency.samples() == 0) {
            return "missing";
        }
        String module = latency.p50Micros() == null ? "module: missing" : "module %s / %s / %s / %s µs".formatted(micros(latency.p50Micros()),
                micros(latency.p90Micros()), micros(latency.p99Micros()), micros(latency.p999Micros()));
        String jmeter = "JMeter %s / %s ms".formatted(latency.p50Ms(), latency.p99Ms());
        Arrivals arrivals = latency.arrivals();
        if (arrivals == null) {
            return "%s/s offered, %s/s served%s; %s; %s".formatted(or(latency.offeredPerSecond(), Format::grouped, "?"),
                    or(latency.ratePerSecond(), Format::grouped, "?"), latency.errors() == 0 ? "" : ", %s of %s failed".formatted(
                            Format.grouped(latency.errors()), Format.grouped(latency.samples())), module, jmeter);
        }
        return "%s arrivals at %s/s: %s served%s%s; from arrival %s / %s / %s / %s µs; %s; %s%s".formatted(Format.grouped(arrivals.scheduled()),
                or(latency.offeredPerSecond(), Format::grouped, "?"), Format.grouped(arrivals.served()),
                arrivals.failed() == 0 ? "" : ", %s failed".formatted(Format.grouped(arrivals.failed())),
                arrivals.dropped() == 0 ? "" : ", %s dropped".formatted(Format.grouped(arrivals.dropped())),
                fromArrival(arrivals, arrivals.p50Micros()), fromArrival(arrivals, arrivals.p90Micros()), fromArrival(arrivals, arrivals.p99Micros()),
                fromArrival(arrivals, arrivals.maxMicros()), module, jmeter, arrivals.overloaded() ? "; overloaded: " + arrivals.overloadedBecause() : "")
                + (latency.dueBelowService().isEmpty() ? "" : "; not of one set of requests: from arrival below the module's own at "
                        + String.join(", ", latency.dueBelowService()));
    }

    private static String latency(ModuleSummary.Latency latency) {
        if (latency.p50Ms() == null) {
            return "missing";
        }
        return "%s / %d / %d / %d / %d".formatted(Format.number(Math.round(latency.meanMs() * 10) / 10.0), latency.p50Ms(),
                latency.p95Ms(), latency.p99Ms(), latency.maxMs());
    }

    /** What one request of the row asks of its store, as the headline chart labels its bar: {@code 148 GET, 148 round trips}. */
    private static String cost(ModuleSummary m) {
        Double roundTrips = m.storeRoundTripsPerRequest();
        // a bare "none" beside a bar, with no column header above it, would not say none of what
        String work = "none".equals(m.storeWork()) ? "no store work" : m.storeWork();
        return roundTrips == null || roundTrips == 0 ? work : work + ", " + Format.number(roundTrips) + (roundTrips == 1 ? " round trip" : " round trips");
    }

    private static final int TEXT_BAR = 30;

    /**
     * The headline chart for report.md and the console, which cannot draw one: a bar per row as long as its median TPS
     * against the fastest row's, the figure and the row's cost beside it; {@code null} without a measured row.
     */
    String textChart() {
        double top = summaries.stream().map(ModuleSummary::tpsMedian).filter(Objects::nonNull).mapToDouble(Double::doubleValue).max().orElse(0);
        if (top <= 0) {
            return null;
        }
        int name = summaries.stream().mapToInt(m -> m.module().length()).max().orElse(0);
        int figure = summaries.stream().mapToInt(m -> tpsFigure(m).length()).max().orElse(0);
        return summaries.stream().map(m -> {
            int length = m.tpsMedian() == null ? 0 : Math.max(m.tpsMedian() > 0 ? 1 : 0, (int) Math.round(m.tpsMedian() * TEXT_BAR / top));
            return ("%-" + name + "s  %-" + TEXT_BAR + "s  %" + figure + "s  %s").formatted(m.module(), "█".repeat(length), tpsFigure(m), cost(m));
        }).collect(Collectors.joining("\n"));
    }

    private static String tpsFigure(ModuleSummary m) {
        return or(m.tpsMedian(), tps -> Format.grouped(tps) + " TPS", "missing");
    }

    /** The median, the range in brackets, and how many repetitions it rests on when some are missing. */
    private String spread(Spread spread, Function<Double, String> format) {
        if (spread == null) {
            return "missing";
        }
        String text = "%s (%s-%s)".formatted(format.apply(spread.median()), format.apply(spread.min()), format.apply(spread.max()));
        return spread.measured() < settings.repetitions() ? text + " [" + spread.measured() + " of " + settings.repetitions() + " reps]" : text;
    }

    private static <T> String or(T value, Function<T, String> format, String otherwise) {
        return value == null ? otherwise : format.apply(value);
    }

    /** The headline's charts: throughput with its range, the module's own time, open-model latency, throughput over time. */
    List<Section.Chart> headlineCharts() {
        if (summaries.isEmpty()) {
            return List.of();
        }
        List<String> modules = summaries.stream().map(ModuleSummary::module).toList();
        List<Map<String, Object>> overTime = new ArrayList<>();
        int longest = 1;
        for (ModuleSummary m : summaries) {
            var run = m.runs().stream().filter(each -> each.phase().equals(Phase.THROUGHPUT.label()) && each.perSecond().size() > 1).findFirst();
            if (run.isPresent()) {
                // the last second is partial: leave it out rather than draw a false drop
                List<Integer> perSecond = run.get().perSecond().subList(0, run.get().perSecond().size() - 1);
                longest = Math.max(longest, perSecond.size());
                overTime.add(dataset(m.module(), COLORS.get(overTime.size() % COLORS.size()), perSecond, Map.of("pointRadius", 0,
                        "borderWidth", 1.5, "borderColor", COLORS.get(overTime.size() % COLORS.size()))));
            }
        }
        List<Integer> seconds = java.util.stream.IntStream.range(0, longest).boxed().toList();
        return List.of(
                new Section.Chart("tps", "Throughput: median TPS of the closed-model runs, the thin bar their range; "
                        + "beside each row, what one request asks of its store", horizontalBars(summaries.stream()
                                .map(m -> m.module() + " · " + cost(m)).toList(),
                        List.of(dataset("median TPS", "#4e79a7", summaries.stream().map(ModuleSummary::tpsMedian).toList(), Map.of("grouped", false)),
                                dataset("range of the repetitions", "#222", summaries.stream()
                                        .map(m -> m.tpsMin() == null ? null : List.of(m.tpsMin(), m.tpsMax())).toList(),
                                        Map.of("grouped", false, "barPercentage", 0.12))),
                        axis("requests per second", false))),
                new Section.Chart("server", "Time per request in the module (closed model, median; logarithmic axis)", horizontalBars(modules,
                        List.of(dataset("µs per request (module-side)", "#59a14f", summaries.stream().map(m -> m.serverMeanMicrosThroughput() == null
                                ? null : m.serverMeanMicrosThroughput().median()).toList(), Map.of())),
                        axis("µs per request, log scale", true))),
                new Section.Chart("latency", "Open-model latency at half and at 80 % of each row's own throughput, as the module measured it "
                        + "(µs, logarithmic axis)",
                        horizontalBars(modules, List.of(
                                dataset("p50 at half", "#76b7b2", summaries.stream().map(m -> m.openModelLatency().p50Micros()).toList(), Map.of()),
                                dataset("p99 at half", "#f28e2b", summaries.stream().map(m -> m.openModelLatency().p99Micros()).toList(), Map.of()),
                                dataset("p99 at 80 %", "#e15759", summaries.stream().map(m -> m.highLoadLatency().p99Micros()).toList(), Map.of())),
                                axis("µs, log scale", true))),
                new Section.Chart("overTime", "Requests started per second in each row's first closed-model run", Map.of("type", "line",
                        "data", Map.of("labels", seconds, "datasets", overTime), "options", Map.of("animation", false, "maintainAspectRatio", false,
                                "scales", Map.of("x", axis("second of the run", false), "y", axis("requests started, log scale", true))))));
    }

    private static final List<String> COLORS = List.of("#4e79a7", "#e15759", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948",
            "#ff9da7", "#9c755f", "#bab0ac", "#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e");

    private static Map<String, Object> dataset(String label, String color, List<?> data, Map<String, Object> more) {
        Map<String, Object> dataset = new LinkedHashMap<>(Map.of("label", label, "backgroundColor", color, "data", data));
        dataset.putAll(more);
        return dataset;
    }

    private static Map<String, Object> horizontalBars(List<String> labels, List<Map<String, Object>> datasets, Map<String, Object> xAxis) {
        return Map.of("type", "bar", "data", Map.of("labels", labels, "datasets", datasets), "options", Map.of("indexAxis", "y",
                "maintainAspectRatio", false, "animation", false, "scales", Map.of("x", xAxis)));
    }

    private static Map<String, Object> axis(String title, boolean logarithmic) {
        return Map.of("type", logarithmic ? "logarithmic" : "linear", "title", Map.of("display", true, "text", title));
    }

    /** Every chart of the page, by id, as its Chart.js configuration; and how tall each one's box is. */
    static String chartsJson(List<Section.Chart> charts) {
        Map<String, Object> byId = new LinkedHashMap<>();
        charts.forEach(chart -> byId.put(chart.id(), chart.config()));
        return Json.MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(byId).replace("</", "<\\/");
    }

    /** One chart's Chart.js configuration as JSON, safe inside a script element. */
    static String chartJson(Section.Chart chart) {
        return Json.MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(chart.config()).replace("</", "<\\/");
    }

    /** A box tall enough for a horizontal bar chart's rows, or a fixed one for the others. */
    static int height(Section.Chart chart) {
        Object options = chart.config().get("options");
        Object data = chart.config().get("data");
        if (options instanceof Map<?, ?> map && "y".equals(map.get("indexAxis")) && data instanceof Map<?, ?> values
                && values.get("labels") instanceof List<?> labels && values.get("datasets") instanceof List<?> datasets) {
            // one bar a row (a single dataset, or several drawn over each other) needs less room than bars side by side: the
            // throughput chart of seventeen rows then leaves the top of the table under it on a 900 px high first screen
            boolean oneBarPerRow = datasets.size() == 1
                    || datasets.stream().allMatch(dataset -> dataset instanceof Map<?, ?> set && Boolean.FALSE.equals(set.get("grouped")));
            return Math.max(240, labels.size() * (oneBarPerRow ? 26 : 34) + 80);
        }
        return 420;
    }

    private List<Map<String, String>> environmentRows() {
        Environment e = environment;
        Map<String, String> rows = new LinkedHashMap<>();
        rows.put("date", e.date());
        rows.put("git commit", e.gitCommit());
        rows.put("JDK of the modules", e.moduleJdk());
        rows.put("module JVM options", e.jvmArgs());
        rows.put("Redis", e.redisVersion() + ", " + e.redis());
        rows.put("cores", e.cores() + (e.cpuQuota() == null ? "" : ", under a CPU quota of " + Format.number(e.cpuQuota()) + " of them (cgroup)"));
        rows.put("memory", e.memoryMb() + " MB");
        rows.put("OS", e.os());
        rows.put("load generator", e.loadGenerator());
        rows.put("CPU placement", e.cpuPlacement());
        rows.put("closed model", e.threads() + " threads, " + e.durationSeconds() + " s, the first " + e.rampupSeconds() + " s left out");
        rows.put("open model", e.rate() + " requests/s for " + e.latencyDurationSeconds() + " s");
        rows.put("warm-up", e.warmup());
        rows.put("repetitions", e.repetitions() + ", interleaved across rows");
        rows.put("machine steadiness", e.machineSteadiness() == null ? "not measured (scenarios only)"
                : e.machineSteadiness().describe() + ", read before the rows started and after they stopped");
        rows.put("mode", e.quick() ? "quick (a smoke run, not for conclusions)" : "full");
        rows.put("rows", String.join(", ", e.modules()));
        return rows.entrySet().stream().map(row -> Map.of("name", row.getKey(), "value", row.getValue())).toList();
    }
}
