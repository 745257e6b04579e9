package dev.colorbench.benchmark.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;


/**
 * Publishes a full run as the reference run: its {@code summary.json} and {@code report.md} into {@code docs/results/}, and
 * the headline picture drawn from that summary by the report's own chart code, and each row's flame graph. Never the samples. The README's and the
 * results page's figures are checked against the published summary by {@code PublishedResultsTest}. A full run of one
 * scenario alone ({@code -Dbenchmark.scenario=servers}) is published the same way into {@code docs/results/<scenario>/},
 * without a picture: its page quotes its report. A scenario whose rows compare only within a module (copies) may be run in
 * parts, each with some of the modules ({@code benchmark.modules}): a further part goes into {@code docs/results/<scenario>-<n>/}
 * with {@code -Dpublish.as=<scenario>-<n>}.
 * <pre>./mvnw -Ppublish -pl benchmark -am verify     (after ./mvnw -Pbenchmark verify)</pre>
 */
public final class Publish {

    static final String RESULTS = "docs/results";

    private Publish() {
    }

    public static void main(String[] args) {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        Path run = root.resolve(System.getProperty("publish.from", "benchmark/target/benchmark"));
        String as = System.getProperty("publish.as", "");
        for (Reproducibility.Kind kind : Reproducibility.Kind.values()) {
            if (kind.folder.equals(as)) {
                System.out.println("[publish] " + run + " -> " + publishBeside(run, root.resolve(RESULTS), kind));
                return;
            }
        }
        if (PART.matcher(as).matches()) {
            System.out.println("[publish] " + run + " -> " + publish(run, root.resolve(RESULTS), null, as));
            return;
        }
        if (!as.isEmpty()) {
            throw new IllegalArgumentException("publish.as=" + as + ": a run is published as the reference (no publish.as), or as one of "
                    + java.util.Arrays.stream(Reproducibility.Kind.values()).map(kind -> "'" + kind.folder + "'").toList()
                    + ", or a scenario's further part as <scenario>-<n>, as copies-2");
        }
        // only the headline's picture needs a browser: a scenario's run, or a workload's, publishes without one
        System.out.println("[publish] " + run + " -> " + publish(run, root.resolve(RESULTS), Browser.find().orElse(null)));
    }

    /**
     * A further part adds rows to the first part's run, of the same code: the scenario's first part must be published, of the
     * same commit, and no other part may hold a row of this one's (its figure would be published twice, perhaps two ways).
     */
    private static void refuseAPartThatDoesNotAdd(Report.Summary summary, String scenario, Path results, String part) throws IOException {
        Path first = results.resolve(scenario).resolve("summary.json");
        if (!Files.isRegularFile(first)) {
            throw new IllegalStateException("A part is published beside its scenario's first part, and " + first
                    + " holds none: publish the first part first (without publish.as)");
        }
        String commit = summary.environment().gitCommit();
        java.util.Set<String> rows = rows(summary, scenario);
        for (int n = 1; n <= 9; n++) {
            String other = (n == 1) ? scenario : scenario + "-" + n;
            Path published = results.resolve(other).resolve("summary.json");
            if (other.equals(part) || !Files.isRegularFile(published)) {
                continue;
            }
            Report.Summary otherSummary = Report.Summary.read(published);
            if (!java.util.Objects.equals(otherSummary.environment().gitCommit(), commit)) {
                throw new IllegalStateException("The run is of commit " + commit + ", the published " + other + " of "
                        + otherSummary.environment().gitCommit() + ": a scenario's parts measure one commit");
            }
            java.util.Set<String> both = new java.util.TreeSet<>(rows);
            both.retainAll(rows(otherSummary, scenario));
            if (!both.isEmpty()) {
                throw new IllegalStateException("The run measures " + both + ", which the published " + other
                        + " holds: a part adds modules the others do not have");
            }
        }
    }

    /** The rows a run of {@code scenario} measured. */
    private static java.util.Set<String> rows(Report.Summary summary, String scenario) {
        Object rows = (summary.scenarios() == null) ? null : summary.scenarios().get(scenario);
        return (rows instanceof Map<?, ?> byRow) ? byRow.keySet().stream().map(String::valueOf).collect(java.util.stream.Collectors.toSet())
                : java.util.Set.of();
    }

    /** A further part of a scenario's run: {@code <scenario>-<n>}. */
    private static final Pattern PART = Pattern.compile("([a-z]+)-([2-9])");

    /** The scenarios whose rows compare only within a module, so that a part with other modules adds rows and changes none. */
    private static final java.util.Set<String> IN_PARTS = java.util.Set.of("copies");

    static String publish(Path run, Path results, Browser browser) {
        return publish(run, results, browser, null);
    }

    /**
     * Publishes the run in {@code run} into {@code results} (or its scenario's folder there), and says which files it wrote where;
     * {@code browser} draws the headline's picture, and may be {@code null} for any other run. {@code part}, unless null, is the
     * folder of a further part of a scenario's run ({@code copies-2}).
     */
    static String publish(Path run, Path results, Browser browser, String part) {
        try {
            Path summaryFile = run.resolve("summary.json");
            Path report = run.resolve("report.md");
            if (!Files.isRegularFile(summaryFile) || !Files.isRegularFile(report)) {
                throw new IllegalStateException("No run to publish in " + run + ": run ./mvnw -Pbenchmark verify first");
            }
            Report.Summary summary = Report.Summary.read(summaryFile);
            Environment environment = summary.environment();
            Map<String, Object> scenarios = summary.scenarios() == null ? Map.of() : summary.scenarios();
            boolean headline = !summary.modules().isEmpty();
            if (environment.quick() || !headline && scenarios.size() != 1) {
                throw new IllegalStateException("Only a full run with the headline rows, or of one scenario alone, is published; " + run + " holds "
                        + (environment.quick() ? "a quick run" : "no headline row and " + scenarios.size() + " scenarios"));
            }
            if (String.valueOf(environment.gitCommit()).endsWith("-dirty")) {
                throw new IllegalStateException("The run was of a working tree with uncommitted changes (" + environment.gitCommit()
                        + "): a reference run names a commit that holds its code");
            }
            // a workload run is the headline under a user's workload: published beside the reference run, never over it
            boolean workload = environment.workload() != null;
            Path folder = workload ? results.resolve(dev.colorbench.benchmark.Workload.SCENARIO)
                    : headline ? results : results.resolve(scenarios.keySet().iterator().next());
            if (part != null) {
                Matcher named = PART.matcher(part);
                String scenario = headline || workload ? null : scenarios.keySet().iterator().next();
                if (scenario == null || !named.matches() || !named.group(1).equals(scenario) || !IN_PARTS.contains(scenario)) {
                    throw new IllegalStateException("A run is published as a part, " + part + ", only if it is a run of a scenario whose rows"
                            + " compare within a module alone, " + IN_PARTS + ", named <scenario>-<n>; " + run + " holds "
                            + (scenario == null ? "the headline" : "the scenario " + scenario));
                }
                refuseAPartThatDoesNotAdd(summary, scenario, results, part);
                folder = results.resolve(part);
            }
            Files.createDirectories(folder);
            Files.copy(summaryFile, folder.resolve("summary.json"), StandardCopyOption.REPLACE_EXISTING);
            Files.copy(report, folder.resolve("report.md"), StandardCopyOption.REPLACE_EXISTING);
            copyTimeline(run, folder);
            if (!headline) {
                return folder + ": summary.json, report.md";
            }
            if (workload) {
                copyFlameGraphs(run.resolve("profiles"), folder.resolve("profiles"));
                return folder + ": summary.json, report.md, profiles/";
            }
            if (browser == null) {
                throw new IllegalStateException(
                        "Publishing draws the headline picture in headless Chromium, and none was found: apt-get install chromium, or CHROMIUM=<path>");
            }
            copyFlameGraphs(run.resolve("profiles"), folder.resolve("profiles"));
            Path page = Files.createTempFile("headline", ".html");
            try {
                Files.writeString(page, Headline.page(Headline.shape(summary), command(Files.readString(report, StandardCharsets.UTF_8))));
                Browser.Drawing drawing = browser.open(page);
                if (!drawing.drewEverything()) {
                    throw new IllegalStateException("The headline page did not draw: " + drawing);
                }
                browser.screenshot(page, results.resolve("headline.png"), Headline.WIDTH, Headline.HEIGHT);
            }
            finally {
                Files.deleteIfExists(page);
            }
            return folder + ": summary.json, report.md, headline.png, profiles/";
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Publishes the run in {@code run} beside the reference run, into {@code docs/results/<kind>/} with its comparison page:
     * the repeat, a full run of the reference run's commit on its processor, or elsewhere, on another; or the run with the CPU halved, a full run of a commit as clean
     * whose own report records the CPU quota it ran under (docs/measuring.md#on-a-slower-machine); or the run of fewer rows, a full run
     * of the reference run's commit on its processor with some of its rows (docs/measuring.md#the-floor).
     */
    static String publishBeside(Path run, Path results, Reproducibility.Kind kind) {
        try {
            Report.Summary other = Report.Summary.read(run.resolve("summary.json"));
            Report.Summary reference = Report.Summary.read(results.resolve("summary.json"));
            String commit = reference.environment().gitCommit();
            Environment environment = other.environment();
            boolean quick = environment.quick();
            boolean repeat = kind == Reproducibility.Kind.REPEAT || kind == Reproducibility.Kind.ELSEWHERE;
            if (repeat && (!commit.equals(environment.gitCommit()) || quick)) {
                throw new IllegalStateException("A repeat is a full run of the reference run's commit " + commit + "; " + run + " holds "
                        + (quick ? "a quick run" : "a run of " + environment.gitCommit()));
            }
            // a repeat on another processor measures the machine as much as the run: it is published apart, and named so
            String processor = reference.environment().cpuModel();
            boolean sameProcessor = processor != null && processor.equals(environment.cpuModel());
            if (repeat && sameProcessor != (kind == Reproducibility.Kind.REPEAT)) {
                throw new IllegalStateException("A repeat on the reference run's processor (" + (processor == null ? "not recorded" : processor)
                        + ") is published as '"
                        + Reproducibility.Kind.REPEAT.folder + "', one on another as '" + Reproducibility.Kind.ELSEWHERE.folder + "'; " + run
                        + " ran on " + environment.cpuModel());
            }
            // a run of fewer rows asks one thing only, whether a row's figures owe anything to the rows beside it: the same code, on
            // the machine of a published full run, some of the same rows; it is set beside that run, not the reference run
            Reproducibility.Base base = Reproducibility.Base.REFERENCE;
            if (kind == Reproducibility.Kind.FEWER_ROWS) {
                base = fullRunOf(results, other);
                reference = Report.Summary.read(results.resolve(base.folder()).resolve("summary.json"));
            }
            if (kind == Reproducibility.Kind.HALVED && (quick || String.valueOf(environment.gitCommit()).endsWith("-dirty")
                    || environment.cpuQuota() == null || environment.cpuQuota() > environment.cores() / 2.0)) {
                throw new IllegalStateException("A run with the CPU halved is a full run of a commit, under a CPU quota of at most half its cores, "
                        + "as its report records; " + run + " holds " + (quick ? "a quick run" : "a run of " + environment.gitCommit()
                                + " on " + environment.cores() + " cores, CPU quota " + (environment.cpuQuota() == null ? "none" : environment.cpuQuota())));
            }
            Path folder = Files.createDirectories(results.resolve(kind.folder));
            Files.copy(run.resolve("summary.json"), folder.resolve("summary.json"), StandardCopyOption.REPLACE_EXISTING);
            Files.copy(run.resolve("report.md"), folder.resolve("report.md"), StandardCopyOption.REPLACE_EXISTING);
            Files.writeString(folder.resolve("comparison.md"), Reproducibility.markdown(base, reference, other, kind));
            copyTimeline(run, folder);
            return folder + ": summary.json, report.md, comparison.md";
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * The published full run a run of fewer rows is set beside: the reference run, or the repeat elsewhere, whichever ran the same
     * commit on the same processor under the same host build as it did, and measured every row it did and more. Refused when none
     * did: on another machine a row's microseconds move by more than the rows beside it could move them.
     */
    static Reproducibility.Base fullRunOf(Path results, Report.Summary run) throws IOException {
        Environment environment = run.environment();
        List<String> rows = run.modules().stream().map(ModuleSummary::module).toList();
        List<String> machines = new java.util.ArrayList<>();
        for (Reproducibility.Base base : List.of(Reproducibility.Base.REFERENCE, Reproducibility.Base.ELSEWHERE)) {
            Path summary = results.resolve(base.folder()).resolve("summary.json");
            if (!Files.isRegularFile(summary)) {
                continue;
            }
            Report.Summary full = Report.Summary.read(summary);
            Environment of = full.environment();
            java.util.Set<String> all = full.modules().stream().map(ModuleSummary::module).collect(java.util.stream.Collectors.toSet());
            if (!environment.quick() && java.util.Objects.equals(of.gitCommit(), environment.gitCommit())
                    && java.util.Objects.equals(of.cpuModel(), environment.cpuModel()) && java.util.Objects.equals(of.os(), environment.os())
                    && all.containsAll(rows) && rows.size() < all.size()) {
                return base;
            }
            machines.add("%s, %s on %s under %s".formatted(base.name(), of.gitCommit(), of.cpuModel(), of.os()));
        }
        throw new IllegalStateException("A run of fewer rows is a full run of a published full run's commit, on its processor and host build ("
                + String.join("; ", machines) + "), of some of its rows; the run holds "
                + (environment.quick() ? "a quick run" : "a run of " + environment.gitCommit() + " on " + environment.cpuModel() + " under "
                        + environment.os() + " with the rows " + rows));
    }

    /**
     * The run's {@code timeline.json}, where its time went by stage, which the pages' run times are checked against
     * ({@code PublishedResultsTest}); an older run written without one has none to copy.
     */
    private static void copyTimeline(Path run, Path folder) throws IOException {
        Path timeline = run.resolve("timeline.json");
        if (Files.isRegularFile(timeline)) {
            Files.copy(timeline, folder.resolve("timeline.json"), StandardCopyOption.REPLACE_EXISTING);
        }
        else {
            Files.deleteIfExists(folder.resolve("timeline.json"));
        }
    }

    /** Each row's flame graph, which the published report.md links to; the collapsed stacks behind them stay with the run. */
    private static void copyFlameGraphs(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            return;
        }
        if (Files.isDirectory(to)) {
            try (java.util.stream.Stream<Path> old = Files.list(to)) {
                for (Path file : old.toList()) {
                    Files.delete(file);
                }
            }
        }
        Files.createDirectories(to);
        try (java.util.stream.Stream<Path> pages = Files.list(from)) {
            for (Path page : pages.filter(file -> file.getFileName().toString().endsWith(".html")).toList()) {
                Files.copy(page, to.resolve(page.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /** The run's command, from the first line of its report.md: {@code **Full run** `./mvnw -Pbenchmark verify` · commit ...}. */
    static String command(String reportMarkdown) {
        Matcher command = Pattern.compile("`([^`]+)`").matcher(reportMarkdown.lines().findFirst().orElse(""));
        return command.find() ? command.group(1) : "./mvnw -Pbenchmark verify";
    }
}
