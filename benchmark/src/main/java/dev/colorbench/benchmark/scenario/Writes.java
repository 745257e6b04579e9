package dev.colorbench.benchmark.scenario;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Console;
import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.RunDirectory;
import dev.colorbench.benchmark.modules.Layout;
import dev.colorbench.benchmark.modules.PatternModule;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.plan.BodyCheck;
import dev.colorbench.benchmark.plan.Phase;
import dev.colorbench.benchmark.plan.RunKey;
import dev.colorbench.benchmark.plan.Schedule;
import dev.colorbench.benchmark.report.Section;
import dev.colorbench.benchmark.results.JMeterResults;
import dev.colorbench.benchmark.results.Sample;
import dev.colorbench.testkit.statistics.Statistics;
import dev.colorbench.benchmark.run.Condition;
import dev.colorbench.benchmark.run.Lab;
import dev.colorbench.benchmark.run.RunningModule;
import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;

/**
 * {@code writes}: every row read while another writer changes colors. A client of the run's own ({@link ColorWriter},
 * not a module) changes one color after another, at 0, 10, 100 and 1,000 changes a second (quick: 1,000 alone), each
 * written where every row reads it ({@link StoredPalettes}: the JSON strings, the cache's keys, the whole palette's
 * array, a repository's hashes, the table), while JMeter loads the rows one after another. Per row and rate: read
 * throughput, p99 and failed requests (under load an answer must be 200 and as long as the palette: which palette it
 * is changes by the millisecond); for each row that keeps a copy ({@code colorbench.nearCache}), how long each change
 * took to be served ({@link StalenessProbe}, over the changes made while that row was loaded). Once the writes stop
 * and {@link #SETTLED} has passed, every row's answer for the palette and for each color must be what its store holds,
 * or the run fails naming the row; then the palette is put back everywhere.
 *
 * <p>Rows: the scenario's usual ones, plus every module that keeps a copy and every one that caches the whole palette
 * as one value, unless {@code benchmark.modules} names them.
 */
final class Writes implements Scenario {

    /** The staleness bound the near caches state (the test kit's {@code StalenessContractTest.SETTLED}). */
    static final Duration SETTLED = Duration.ofSeconds(1);

    private static final String SETTLED_TEXT = SETTLED.toSeconds() + " s";

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();

    @Override
    public String name() {
        return "writes";
    }

    @Override
    public Section run(ScenarioContext context) {
        // quick: the one rate that takes every path (the writer, the staleness probes, the check and the restore after the writes)
        List<Integer> rates = context.settings().quick() ? List.of(1000) : List.of(0, 10, 100, 1000);
        List<Target> rows = rows(context);
        List<Layout> layouts = rows.stream().map(target -> target.module().layout()).distinct().sorted().toList();
        BenchmarkSettings settings = context.settings().forScenario(context.settings().threads());
        RunDirectory directory = context.directory().sub(name());
        Map<Integer, Step> steps = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        Map<Layout, Double> bytesPerChange;
        try (Lab lab = context.measurement().open(Condition.plain(name(), settings, rows), directory);
                StoredPalettes store = StoredPalettes.connect(lab.stores().redisUrl(), lab.stores().databaseUrl())) {
            List<RunningModule> copies = lab.modules().stream().filter(module -> module.target().module().nearCache()).toList();
            for (int rate : rates) {
                ColorWriter writer = ColorWriter.start(store, layouts, rate);
                List<StalenessProbe> probes = rate == 0 ? List.of() : copies.stream().map(module -> StalenessProbe.start(module, writer)).toList();
                JMeterResults results;
                try {
                    results = lab.run(Schedule.of(settings, rows.stream().map(Target::id).toList(), false), settings,
                            directory.sub(rate + "-per-second"), BodyCheck.LENGTH);
                }
                finally {
                    writer.close();
                    probes.forEach(StalenessProbe::close);
                }
                Console.info("writes: %s changes/s asked, %s written".formatted(Format.grouped(rate), Format.number(writer.achievedPerSecond())));
                Map<String, RowFigures> figures = new LinkedHashMap<>();
                Map<String, Staleness> staleness = new LinkedHashMap<>();
                for (Target target : rows) {
                    RowFigures row = RowFigures.of(target.id(), results, settings);
                    figures.put(target.id(), row);
                    // failed requests are a figure here (a store busy with writes may time out); a body of the wrong length is a fault
                    problems.addAll(row.faults(name(), Format.grouped(rate) + " changes/s"));
                }
                for (int i = 0; i < probes.size(); i++) {
                    String id = copies.get(i).target().id();
                    Staleness row = Staleness.of(probes.get(i).followed(), loadedWindows(results, id, settings));
                    staleness.put(id, row);
                    if (row.neverServed() > 0 && copies.get(i).target().module().knownStale() == null) {
                        problems.add("%s, %d changes/s: module %s did not serve %d change(s) within %s".formatted(name(), rate, id,
                                row.neverServed(), StalenessProbe.GIVE_UP.toSeconds() + " s"));
                    }
                }
                sleep(SETTLED);
                Map<String, List<String>> staleForGood = new LinkedHashMap<>();
                for (RunningModule module : lab.modules()) {
                    List<String> differences = whatTheStoreHolds(module, store, rate);
                    staleForGood.put(module.target().id(), new ArrayList<>(differences));
                    // a row known to stay stale is measured for it; any other fails the run
                    if (module.target().module().knownStale() == null) {
                        problems.addAll(differences);
                    }
                }
                store.restore(layouts);
                for (RunningModule module : lab.modules()) {
                    String notBack = awaitPalette(module, ColorJson.palette(), rate);
                    if (notBack != null) {
                        staleForGood.computeIfAbsent(module.target().id(), id -> new ArrayList<>()).add(notBack);
                        if (module.target().module().knownStale() == null) {
                            problems.add(notBack);
                        }
                    }
                }
                steps.put(rate, new Step(rate, writer.achievedPerSecond(), writer.changes(), figures, staleness, staleForGood));
            }
            bytesPerChange = store.bytesPerChange();
        }
        return section(settings, rows, steps, bytesPerChange, problems);
    }

    /** The scenario's usual rows, and every module that keeps a copy or caches the palette as one value, unless the run names its rows. */
    private static List<Target> rows(ScenarioContext context) {
        List<Target> rows = new ArrayList<>(context.modules());
        if (context.settings().modules().isEmpty()) {
            List<String> chosen = rows.stream().map(Target::id).toList();
            List<String> more = context.catalog().modules().stream()
                    .filter(module -> module.nearCache() || module.layout() == Layout.PALETTE_STRING)
                    .map(PatternModule::id).filter(id -> !chosen.contains(id)).toList();
            if (!more.isEmpty()) {
                rows.addAll(context.catalog().targets(more));
            }
        }
        return rows;
    }

    /** From first start to last end of the row's measured runs, one window per repetition (epoch ms). */
    private static List<long[]> loadedWindows(JMeterResults results, String id, BenchmarkSettings settings) {
        List<long[]> windows = new ArrayList<>();
        for (int repetition = 1; repetition <= settings.repetitions(); repetition++) {
            List<Sample> samples = results.samples(new RunKey(id, Phase.THROUGHPUT, repetition));
            if (!samples.isEmpty()) {
                windows.add(new long[] { samples.stream().mapToLong(Sample::timestamp).min().orElseThrow(),
                        samples.stream().mapToLong(sample -> sample.timestamp() + sample.elapsed()).max().orElseThrow() });
            }
        }
        return windows;
    }

    /** What the row answers, for the palette and for each color, against what its store holds now; one problem per kind of difference. */
    private List<String> whatTheStoreHolds(RunningModule module, StoredPalettes store, int rate) {
        String id = module.target().id();
        List<Color> held = store.held(module.target().module().layout());
        List<String> problems = new ArrayList<>();
        if (held.stream().anyMatch(Objects::isNull)) {
            problems.add("%s, %d changes/s: the store of %s holds %d color(s) it cannot read".formatted(name(), rate, id,
                    held.stream().filter(Objects::isNull).count()));
            return problems;
        }
        String palette = ask(module, "/colors");
        if (!ColorJson.of(held).equals(palette)) {
            problems.add("%s, %d changes/s: %s answers /colors other than what its store holds, %s after the writes stopped".formatted(name(), rate,
                    id, SETTLED_TEXT));
        }
        List<String> different = new ArrayList<>();
        for (Color color : held) {
            if (!ColorJson.of(color).equals(ask(module, "/colors/" + color.name()))) {
                different.add(color.name());
            }
        }
        if (!different.isEmpty()) {
            problems.add("%s, %d changes/s: %s answers %d color(s) other than what its store holds, %s after the writes stopped: %s".formatted(
                    name(), rate, id, different.size(), SETTLED_TEXT, different.stream().limit(5).collect(Collectors.joining(", "))));
        }
        return problems;
    }

    /** Null once the row answers the palette put back, or what it did not do within the give-up. */
    private String awaitPalette(RunningModule module, String palette, int rate) {
        long deadline = System.nanoTime() + StalenessProbe.GIVE_UP.toNanos();
        while (!palette.equals(ask(module, "/colors"))) {
            if (System.nanoTime() > deadline) {
                return "%s, %d changes/s: %s did not answer the palette within %s of it being put back".formatted(name(), rate,
                        module.target().id(), StalenessProbe.GIVE_UP.toSeconds() + " s");
            }
            sleep(Duration.ofMillis(20));
        }
        return null;
    }

    private String ask(RunningModule module, String path) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(module.baseUri() + path)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? response.body() : "HTTP " + response.statusCode();
        }
        catch (IOException ex) {
            return ex.toString();
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }

    /** One write rate: what the writer achieved, and each row's figures. */
    record Step(int askedPerSecond, double writtenPerSecond, long changes, Map<String, RowFigures> rows,
            Map<String, Staleness> staleness, Map<String, List<String>> staleForGood) {
    }

    /** How long the changes made while a row was loaded took to be served by it, in ms; {@code neverServed} within the give-up. */
    record Staleness(int followed, int neverServed, Double p50Millis, Double p99Millis, Double maxMillis) {

        static Staleness of(List<StalenessProbe.Followed> all, List<long[]> windows) {
            List<StalenessProbe.Followed> loaded = all.stream()
                    .filter(change -> windows.stream().anyMatch(window -> change.writtenAtMillis() >= window[0] && change.writtenAtMillis() <= window[1]))
                    .toList();
            double[] served = loaded.stream().filter(change -> change.millis() != null).mapToDouble(StalenessProbe.Followed::millis).sorted().toArray();
            int never = (int) loaded.stream().filter(change -> change.millis() == null).count();
            if (served.length == 0) {
                return new Staleness(loaded.size(), never, null, null, null);
            }
            return new Staleness(loaded.size(), never, Statistics.percentile(served, 50), Statistics.percentile(served, 99), served[served.length - 1]);
        }

        String describe() {
            if (p50Millis == null) {
                return followed == 0 ? "no change made under its load" : "none of %d changes served".formatted(followed);
            }
            return "served after %s / %s / %s ms (p50 / p99 / max of %s changes%s)".formatted(ms(p50Millis), ms(p99Millis), ms(maxMillis),
                    Format.grouped(followed), neverServed == 0 ? "" : ", %d never".formatted(neverServed));
        }

        private static String ms(double millis) {
            return millis < 10 ? String.format(Locale.ROOT, "%.2f", millis) : Format.number(Math.round(millis * 10) / 10.0);
        }
    }

    private Section section(BenchmarkSettings settings, List<Target> rows, Map<Integer, Step> steps, Map<Layout, Double> bytesPerChange,
            List<String> problems) {
        List<String> header = new ArrayList<>(List.of("module", "a change writes"));
        steps.keySet().forEach(rate -> header.add("%s changes/s: TPS, p99 ms, failed".formatted(Format.grouped(rate))));
        List<List<String>> table = new ArrayList<>();
        Map<String, List<Double>> tps = new LinkedHashMap<>();
        for (Target target : rows) {
            String id = target.id();
            Layout layout = target.module().layout();
            List<String> row = new ArrayList<>(List.of(target.module().knownStale() == null ? id : id + " (known stale)", layout == Layout.NONE ? "nothing it reads"
                    : "%s (%s bytes)".formatted(layout, Format.grouped(bytesPerChange.getOrDefault(layout, 0.0)))));
            for (Step step : steps.values()) {
                RowFigures figures = step.rows().get(id);
                String cell = "%s, %s, %s".formatted(RowFigures.spread(figures.tps()), figures.latency().p99Ms(), figures.failed());
                Staleness staleness = step.staleness().get(id);
                List<String> stale = step.staleForGood().getOrDefault(id, List.of());
                row.add((staleness == null ? cell : cell + "; " + staleness.describe())
                        + (stale.isEmpty() ? "" : "; STALE after the writes: " + stale.stream().map(Writes::afterWhat).collect(Collectors.joining("; "))));
                tps.computeIfAbsent(id, key -> new ArrayList<>()).add(figures.tpsMedian());
            }
            table.add(row);
        }
        List<String> labels = steps.keySet().stream().map(Format::grouped).toList();
        String written = steps.values().stream().map(step -> Format.number(Math.round(step.writtenPerSecond() * 10) / 10.0))
                .collect(Collectors.joining(", "));
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("steps", steps);
        data.put("bytesPerChange", bytesPerChange);
        return new Section(name(), "Reads while another writer changes colors",
                ("Another client changes one color after another (another blue, as many digits) at %s changes a second, each written where "
                        + "every row reads it, while JMeter loads the rows one after another (%d clients, %d s, %d repetition(s)). Staleness, for "
                        + "the rows that keep a copy: from Redis's reply to the writer to the first answer that carries the change, over the "
                        + "changes made while that row was loaded. After each rate, %s after the last change, every row answered the palette "
                        + "and each color as its store held them, or the run fails.").formatted(String.join(", ", labels), settings.threads(),
                                settings.scenarioDurationSeconds(), settings.scenarioRepetitions(), SETTLED_TEXT),
                header, table,
                List.of(Charts.categoryLines("writes-tps", "Read throughput against the write rate", labels, tps, "changes per second",
                        "read TPS (log)", true)),
                List.of("Changes written per second, as asked: " + written + " (the writer shares the machine; a rate it could not keep is "
                        + "what it achieved).",
                        "Under load an answer counts as right when it is 200 and as long as the palette: which palette is right changes by the "
                                + "millisecond. The check that counts is the one after the writes stop.",
                        ("What a change costs the writer: one SET of one color's JSON where each color has a key (json-strings, cache-strings), "
                                + "one HSET per color (palette-hash, repository-hashes), one UPDATE (table), but the whole palette's array where it "
                                + "is cached as one value (palette-string): %s bytes a change instead of %s. Two such writers would each need a GET "
                                + "and a SET under WATCH, or lose each other's changes.").formatted(
                                        Format.grouped(bytesPerChange.getOrDefault(Layout.PALETTE_STRING, (double) ColorJson.palette().length())),
                                        Format.grouped(bytesPerChange.getOrDefault(Layout.JSON_STRINGS, averageColorLength())))),
                data, problems);
    }

    /** A difference found after the writes, without the scenario and rate it is listed under. */
    private static String afterWhat(String problem) {
        int colon = problem.indexOf(": ");
        return colon < 0 ? problem : problem.substring(colon + 2);
    }

    private static double averageColorLength() {
        return Palette.all().stream().mapToInt(color -> ColorJson.of(color).length()).average().orElse(0);
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
