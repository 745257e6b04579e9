package dev.colorbench.benchmark.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.samskivert.mustache.Mustache;
import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Json;
import dev.colorbench.benchmark.RunDirectory;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.results.JMeterResults;
import dev.colorbench.benchmark.run.CpuPlacement;
import dev.colorbench.benchmark.run.DataStores;
import dev.colorbench.benchmark.run.MachineSteadiness;
import dev.colorbench.benchmark.run.Measured;
import dev.colorbench.benchmark.run.SteadyState;
import dev.colorbench.benchmark.run.Verification;

/**
 * The report of one run: {@code summary.json} (the figures), {@code report.md} (the table, to paste
 * into an issue) and {@code report.html} (one self-contained page that opens offline: the tables and
 * Chart.js charts, the library inlined), each from a template under {@code resources/report}.
 */
public final class Report {

    private static final String CHART_JS = "META-INF/resources/webjars/chart.js/%s/dist/chart.umd.min.js";

    private final BenchmarkSettings settings;

    private final Environment environment;

    private final List<ModuleSummary> summaries;

    /** The run's one floor; null in a report of scenarios only. */
    private final Floor floor;

    private final List<Section> sections;

    /** Not in summary.json, whose shape readers rely on: the report's first line. */
    private final String command;

    private Report(BenchmarkSettings settings, Environment environment, List<ModuleSummary> summaries, Floor floor, List<Section> sections,
            String command) {
        this.settings = settings;
        this.environment = environment;
        this.summaries = List.copyOf(summaries);
        this.floor = floor;
        this.sections = List.copyOf(sections);
        this.command = command;
    }

    public static Report of(BenchmarkSettings settings, List<Target> targets, Measured headline, MachineSteadiness machineSteadiness,
            String jmeterVersion, CpuPlacement placement, Path repositoryRoot) {
        Verification verification = headline.verification();
        Environment environment = Environment.collect(settings, targets, verification.redisVersion(), verification.redis(), jmeterVersion,
                placement.describe(), machineSteadiness, repositoryRoot).settled((int) headline.warmups().stream().filter(warmup -> warmup.steady()).count());
        if (headline.condition().name().equals(dev.colorbench.benchmark.Workload.SCENARIO)) {
            environment = environment.under(settings.workload(), headline.addedRedisRoundTripMillis());
        }
        Summaries.Rows rows = Summaries.of(settings, targets, verification, headline.warmups(), headline.staleness(), headline.results());
        return new Report(settings, environment, rows.summaries(), rows.floor(), List.of(), command(System.getProperties()));
    }

    /** A report of scenarios only, without the headline comparison. */
    public static Report of(BenchmarkSettings settings, List<Target> targets, String redisVersion, String redis, String jmeterVersion,
            CpuPlacement placement, Path repositoryRoot) {
        return new Report(settings, Environment.collect(settings, targets, redisVersion, redis, jmeterVersion, placement.describe(),
                null, repositoryRoot), List.of(), null, List.of(), command(System.getProperties()));
    }

    /** This report with one more scenario's section. */
    public Report with(Section section) {
        List<Section> more = new ArrayList<>(sections);
        more.add(section);
        return new Report(settings, environment, summaries, floor, more, command);
    }

    /**
     * The command that repeats this run: the profile and every {@code -Dbenchmark.*} knob it was given (Maven makes each
     * {@code -D} a system property of its JVM, which runs the benchmark), sorted by name, a URL's password hidden. The
     * environment's stores ({@code REDIS_URL}, ...) are not in it: the environment table names them.
     */
    static String command(Properties properties) {
        return Stream.concat(Stream.of("./mvnw -Pbenchmark verify"), properties.stringPropertyNames().stream()
                .filter(name -> name.startsWith("benchmark.")).sorted()
                .map(name -> "-D" + name + "=" + shellWord(DataStores.redacted(properties.getProperty(name)))))
                .collect(Collectors.joining(" "));
    }

    /** A value as a shell would read it back: quoted when it has spaces or anything else the shell would act on. */
    private static String shellWord(String value) {
        return value.matches("[\\w.,:/+=@%-]+") ? value : "'" + value.replace("'", "'\\''") + "'";
    }

    /**
     * What summary.json holds: the environment of the run, one object per row of the headline, the run's one floor (missing from
     * a summary.json written before the harness measured it, and null for scenarios only), then each scenario's figures.
     */
    record Summary(Environment environment, List<ModuleSummary> modules, Floor floor, Map<String, Object> scenarios) {

        /** A summary.json, read back through these records ({@link Json#RECORDS}). */
        static Summary read(java.nio.file.Path file) {
            try {
                return Json.RECORDS.readValue(file.toFile(), Summary.class);
            }
            catch (tools.jackson.core.JacksonException ex) {
                throw new IllegalStateException("Cannot read " + file + " as a summary.json: " + ex.getOriginalMessage(), ex);
            }
        }

        /** The same, from summary.json's shape as a map (a page drawn from the file, a test's changed copy of it). */
        static Summary of(Map<String, Object> summary) {
            return Json.RECORDS.convertValue(summary, Summary.class);
        }
    }

    /** The run's one floor; null in a report of scenarios only. */
    Floor floor() {
        return floor;
    }

    public List<ModuleSummary> summaries() {
        return summaries;
    }

    public void write(RunDirectory directory) {
        ReportView view = new ReportView(settings, environment, summaries, floor, command);
        Map<String, Object> scenarios = new LinkedHashMap<>();
        sections.forEach(section -> scenarios.put(section.id(), section.data()));
        RunDirectory.write(directory.file("summary.json"), Json.MAPPER.writeValueAsString(new Summary(environment, summaries, floor, scenarios)));
        List<Section> shown = shown();
        RunDirectory.write(directory.file("report.md"), render("report.md.mustache", false, view.markdown(shown)));
        String chartJs = chartJs();
        RunDirectory.write(directory.file("report.html"), render("report.html.mustache", true, view.html(shown, chartJs)));
        if (!summaries.isEmpty()) {
            RunDirectory.write(directory.file("headline.html"), Headline.page(Headline.summary(environment, summaries), command));
        }
        List<Section.Chart> charts = new ArrayList<>(view.headlineCharts());
        sections.forEach(section -> charts.addAll(section.charts()));
        for (Section.Chart chart : charts) {
            // each chart on a page of its own, to open alone or to take a picture of (README's images)
            RunDirectory.write(directory.file("charts/" + chart.id() + ".html"), render("chart.html.mustache", true, Map.of("title", chart.title(),
                    "height", ReportView.height(chart), "chartJs", chartJs, "config", ReportView.chartJson(chart))));
        }
    }

    /** The main tables, for the console at the end of the run. */
    public String table() {
        return render("tables.md.mustache", false, new ReportView(settings, environment, summaries, floor, command).markdown(shown()));
    }

    /**
     * The sections the pages show: with a headline, its fleet table first ({@link Fleet}), then the scenarios'. The fleet
     * table's figures are each row's {@code fleet} in summary.json already, so it is no scenario there.
     */
    private List<Section> shown() {
        if (summaries.isEmpty()) {
            return sections;
        }
        List<Section> shown = new ArrayList<>();
        shown.add(Fleet.headline(summaries));
        shown.addAll(sections);
        return shown;
    }

    /**
     * Fails the build, naming each row, when a measured run recorded no sample, a row has more
     * errors than allowed, or a scenario found a problem of its own.
     */
    public void failOnProblems() {
        List<String> problems = new ArrayList<>(Summaries.problems(summaries, settings.errorThresholdPercent()));
        sections.forEach(section -> problems.addAll(section.problems()));
        if (!problems.isEmpty()) {
            throw new IllegalStateException("The benchmark failed:\n  " + String.join("\n  ", problems)
                    + "\nSee benchmark/target/benchmark/report.html and the module's results.csv.gz");
        }
    }

    static String render(String template, boolean html, Object context) {
        try (Reader reader = reader(template)) {
            return Mustache.compiler().escapeHTML(html).defaultValue("")
                    .withLoader(partial -> reader(partial + ".md.mustache")).compile(reader).execute(context);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** The Chart.js bundle of the webjar on the classpath, whatever its version. */
    static String chartJs() {
        try (InputStream pom = resource("META-INF/maven/org.webjars.npm/chart.js/pom.properties")) {
            Properties properties = new Properties();
            properties.load(pom);
            try (InputStream script = resource(CHART_JS.formatted(properties.getProperty("version")))) {
                // the library is inlined in a <script> element, which its text must not end early
                return new String(script.readAllBytes(), StandardCharsets.UTF_8).replace("</script", "<\\/script");
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** The one drawing of the headline chart, for report.html and headline.html alike. */
    static String headlineJs() {
        try (InputStream script = resource("report/headline.js")) {
            return new String(script.readAllBytes(), StandardCharsets.UTF_8).replace("</script", "<\\/script");
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static Reader reader(String template) {
        return new InputStreamReader(resource("report/" + template), StandardCharsets.UTF_8);
    }

    private static InputStream resource(String name) {
        InputStream in = Report.class.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new IllegalStateException("Missing resource " + name);
        }
        return in;
    }
}
