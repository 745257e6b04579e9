package dev.colorbench.benchmark.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.run.Profiler;

import static java.util.Map.entry;

/**
 * Ties every figure a page publishes to the row, and in a table to the column, of the run it comes from.
 *
 * <p><b>Tables.</b> A table whose first column names rows of the run ({@code [near-cache](modules/near-cache)},
 * {@code in-memory (tuned)}, {@code **mget-floor**}) is checked cell by cell: {@link #COLUMNS} says, for each column header,
 * what the report writes in that cell for that row, from summary.json. A header {@link #COLUMNS} does not know fails, naming
 * it, so that a new column cannot go unchecked. The table of where the CPU goes (it has a "flame graph" column) has
 * {@link #PROFILE_COLUMNS}.
 *
 * <p><b>Prose.</b> A figure is a number followed by TPS, µs, % or × ("times" after a number with decimals: {@code 1.56
 * times}). Each figure of a sentence (or list item, table cell, code line) must be a figure of a row the sentence names by
 * its id: a number in one of that row's cells of {@link #COLUMNS} or {@link #PROFILE_COLUMNS}, whose header has the same
 * unit ({@link #unitOf}). A sentence that names no row may only quote the run's aggregate figures, those of report.md's own
 * sentences (the open model's 80 %, the spread of the rows, the servers' range of ratios). Any sentence may quote a figure
 * inside a phrase of {@link #ALLOWED}.
 */
final class PublishedFigures {

    /**
     * A column whose cells are words of the page's own, or detail no page quotes: not checked against a field. On a page, a
     * figure in such a cell (TPS, µs, %, ×) must still be one of its row's.
     */
    static final Column UNCHECKED = row -> null;

    // ---------------------------------------------------------------------------------------------------------------------
    // The columns: the one place to edit when the report's columns or summary.json's fields change. One line a column:
    // its header, exactly as the pages write it, and the cell the report writes for a row from summary.json. A path reads
    // nested fields ("cpu.totalMicros.median"). A figure with a 95 % interval, {estimate, low, high}, written
    // "1.56 (1.49-1.63)": entry("x floor", interval("floorRatioInterval", Format::ratio)).
    // ---------------------------------------------------------------------------------------------------------------------

    static final Map<String, Column> COLUMNS = Map.ofEntries(
            // what one request asks of the store
            entry("what one request asks of its store", words("storeWork")),
            entry("store work per request", words("storeWork")),
            entry("round trips", field("storeRoundTripsPerRequest", Format::number)),
            // throughput
            entry("TPS", range("tpsMedian", "tpsMin", "tpsMax", Format::grouped)),
            entry("TPS median (min-max)", range("tpsMedian", "tpsMin", "tpsMax", Format::grouped)),
            entry("x loop", field("ratioToReference", PublishedFigures::times)),
            entry("TPS (95 % interval)", interval("tps", Format::grouped)),
            entry("x loop (95 % interval)", intervalOrNa("ratioToReferenceInterval", Format::ratio)),
            entry("x cacheable-loop (95 % interval)", intervalOrNa("ratioToReferenceInterval", Format::ratio)),
            entry("% of ceiling (95 % interval)", intervalOrNa("percentOfCeilingInterval", ReportView::share)),
            entry("x floor (95 % interval)", intervalOrNa("floorRatioInterval", Format::ratio)),
            entry("CPU µs / request (95 % interval)", interval("cpuMicros", ReportView::micros)),
            entry("CPU µs / request: module + store = total (95 % interval)", row -> row.number("cpuMicros.estimate") == null ? "missing"
                    : "%s + %s = %s".formatted(micros(row, "cpu.moduleMicros.median"), micros(row, "cpu.storeMicros.median"),
                            interval("cpuMicros", ReportView::micros).cell(row))),
            entry("rank", row -> null), // a derived column: checked by the ranking rule of the table (RANKING)
            entry("x cacheable-loop", field("ratioToReference", Format::ratio)),
            entry("x template-mget: TPS · CPU", joined(" · ", field("ratioToMget", Format::ratio), field("cpuRatioToMget", Format::ratio))),
            entry("% of ceiling", field("percentOfCeiling", Format::percent)),
            entry("source post, x loop", PublishedFigures::sourcePost),
            // CPU per request
            entry("CPU µs / request", field("cpu.totalMicros.median", ReportView::micros)),
            entry("CPU µs / request: module + store", moduleAndStore(false)),
            entry("CPU µs / request: module + store (range)", moduleAndStore(true)),
            entry("x floor", field("floorRatio", Format::ratio)),
            entry("requests / s per core", field("cpu.requestsPerCoreSecond", Format::grouped)),
            entry("requests / s per core (95 % interval)", row -> {
                Double estimate = row.number("cpuMicros.estimate");
                return estimate == null ? "missing" : ReportView.perCore(new dev.colorbench.testkit.statistics.Interval(estimate,
                        row.number("cpuMicros.low"), row.number("cpuMicros.high"), row.number("cpuMicros.rounds").intValue()));
            }),
            entry("CPU µs / request, JMeter", spread("cpu.jmeterMicros", ReportView::micros)),
            entry("allocated / request", field("allocatedBytesPerRequest.median", bytes -> Format.grouped(bytes / 1024) + " KB")),
            // what the row is
            entry("pattern", words("pattern")),
            entry("stack", words("stack")),
            entry("beyond the stock pattern", words("tuning")),
            entry("", PublishedFigures::tags), // results.md's last column, unnamed: tuned, stock variant, known stale
            entry("errors", field("errorPercent", percent -> String.format(Locale.ROOT, "%.2f %%", percent))),
            entry("samples", field("samples", Format::grouped)),
            // words of the page's own, no field of the run
            entry("what one request asks of Redis", UNCHECKED),
            // the fleet table (Fleet): arithmetic on the row's fleet figures, its own figures on the first of its lines only
            entry("requests / s per core: application · Redis", UNCHECKED), // the header of published runs older than the one below
            entry("requests / s per application core · per Redis core", UNCHECKED),
            entry("bytes / request to · from Redis", UNCHECKED),
            entry("Gbit/s at full CPU: a shard's link · a 16-core application host's", UNCHECKED),
            entry("at requests / s", UNCHECKED),
            entry("application cores", UNCHECKED),
            entry("Redis cores (main threads)", UNCHECKED),
            entry("Redis shards", UNCHECKED),
            entry("MB/s to · from Redis", UNCHECKED),
            entry("needs more cores", UNCHECKED),
            entry("choose it when", UNCHECKED),
            entry("what it does not have", UNCHECKED),
            entry("setting", UNCHECKED),
            entry("what one request does", UNCHECKED),
            // the report's latency, GC and warm-up detail, which no page quotes: written by ReportView from the same summary
            entry("p99 at half load: module µs (JMeter ms)", UNCHECKED),
            entry("p99 at half load: from arrival / module µs (JMeter ms)", UNCHECKED),
            entry("open model at half its TPS", UNCHECKED),
            entry("open model at 80 % of its TPS", UNCHECKED),
            entry("closed-model latency ms, mean / p50 / p95 / p99 / max", UNCHECKED),
            entry("server µs / request, closed (open)", UNCHECKED),
            entry("GC pauses per s, ms per s, mean", UNCHECKED),
            entry("warm-up, last windows req/s", UNCHECKED));

    /** The columns of the table of where each row's CPU goes (report.md's, with a "flame graph" column): a bucket's share of it. */
    static final Map<String, Column> PROFILE_COLUMNS = profileColumns();

    /**
     * Phrases of the pages whose figures are no figure of a run: settings and rules of the project. A figure inside one of
     * these, where a sentence names no row (or another figure), is allowed.
     */
    static final List<String> ALLOWED = List.of(
            "up to 0.1 % of its closed-model requests", // the share of 503s a row may have (Summaries.STORE_UNAVAILABLE_PERCENT)
            "short of 1.5 times and of 60 %", // what the floor row was built to reach, and did not
            "the open model at 80 % of"); // the open model's load, a setting of every run

    // ---------------------------------------------------------------------------------------------------------------------

    /** What a column's cell must be for a row, as the report writes it; {@code null}: the cell is not checked. */
    @FunctionalInterface
    interface Column {
        String cell(Row row);
    }

    /** One row of a run: its id and its fields in summary.json, the profile of its CPU under "profile". */
    record Row(String id, Map<String, Object> fields) {

        /** A nested field, by its path: {@code cpu.totalMicros.median}; {@code null} where it is not there. */
        Object at(String path) {
            Object value = fields;
            for (String key : path.split("\\.")) {
                value = value instanceof Map<?, ?> map ? map.get(key) : null;
            }
            return value;
        }

        Double number(String path) {
            return at(path) instanceof Number number ? number.doubleValue() : null;
        }
    }

    /** A number as it stands on a page: {@code 16,934}, {@code 1.56}. */
    private static final String NUMBER = "\\d[\\d,]*(?:\\.\\d+)?";

    /**
     * A figure in prose: a number with its unit, TPS, µs, % or × (a ratio); "times" is a ratio only after a number with
     * decimals ({@code 1.56 times}; {@code 148 times} is a count).
     */
    private static final Pattern FIGURE = Pattern.compile("(?<![\\w.,])(" + NUMBER + ")(?:\\s?(TPS|µs|×|%)| (times)\\b)");

    private static final Pattern ANY_NUMBER = Pattern.compile("(?<![\\w.,])" + NUMBER);

    private final String run;

    /** Every row of the run by round: the pairs the ranking compares, whichever rows a table shows. */
    private dev.colorbench.testkit.statistics.Statistics.Rounds rounds = dev.colorbench.testkit.statistics.Statistics.rounds(Map.of(), round -> 1);

    private final Map<String, Row> rows = new LinkedHashMap<>();

    /** Each row's figures, as {@code 16,934 TPS}, {@code 64 µs}, {@code 0.93 ×}, {@code 34.8 %}: the numbers of its cells, in their column's unit. */
    private final Map<String, Set<String>> figures = new LinkedHashMap<>();

    /** The figures of the report's own sentences (not its tables, not its chart of rows), and their numbers with decimals as ratios. */
    private final Set<String> aggregates = new HashSet<>();

    private final Map<String, Column> columns;

    /** Whether this run's tables are checked here (the servers page's table is checked line by line against its report). */
    private final boolean tables;

    private final Pattern rowNames;

    private PublishedFigures(String run, Map<String, Row> rows, Map<String, Set<String>> figures, Map<String, Column> columns, boolean tables,
            String report) {
        this.run = run;
        this.rows.putAll(rows);
        this.figures.putAll(figures);
        this.columns = columns;
        this.tables = tables;
        this.rowNames = Pattern.compile("(?<![\\w+-])(" + rows.keySet().stream().sorted(Comparator.comparing(String::length).reversed())
                .map(Pattern::quote).collect(Collectors.joining("|")) + ")(?![\\w+-])");
        // the report's own sentences: the run's settings, the spread of its rows, the servers' range of ratios; a figure of a
        // row its sentence names is that row's ("cacheable-loop: 324 TPS at 4,957 µs"), which a sentence naming no row may not borrow
        for (Unit unit : units(report)) {
            if (unit.table() != null || unit.code()) {
                continue;
            }
            for (Sentence sentence : sentences(unit)) {
                Set<String> named = new HashSet<>();
                Matcher row = rowNames.matcher(sentence.text());
                while (row.find()) {
                    named.addAll(figures.getOrDefault(row.group(1), Set.of()));
                }
                Matcher figure = FIGURE.matcher(sentence.text());
                while (figure.find()) {
                    figureOf(figure).filter(found -> !named.contains(found)).ifPresent(aggregates::add);
                }
                // a report writes a ratio bare: "Valkey 9.1.2 0.93 to 1.05"
                Matcher number = ANY_NUMBER.matcher(sentence.text());
                while (number.find()) {
                    if (number.group().contains(".") && !named.contains(number.group() + " ×")) {
                        aggregates.add(number.group() + " ×");
                    }
                }
            }
        }
    }

    /** The reference run: summary.json's rows, their profiles, and its report.md. */
    static PublishedFigures ofRun(Map<String, Object> summary, String report) {
        return ofRun(summary, report, COLUMNS);
    }

    /** The reference run, its tables read with these columns (a test's, ahead of a change of the report). */
    @SuppressWarnings("unchecked")
    static PublishedFigures ofRun(Map<String, Object> summary, String report, Map<String, Column> columns) {
        Map<String, Object> profiles = summary.get("scenarios") instanceof Map<?, ?> scenarios
                && scenarios.get("profiles") instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
        Map<String, Row> rows = new LinkedHashMap<>();
        Map<String, Set<String>> figures = new LinkedHashMap<>();
        for (Map<String, Object> module : (List<Map<String, Object>>) summary.get("modules")) {
            Map<String, Object> fields = new LinkedHashMap<>(module);
            fields.put("profile", profiles.get((String) module.get("module")));
            Row row = new Row((String) module.get("module"), fields);
            rows.put(row.id(), row);
            Set<String> numbers = new TreeSet<>();
            for (Map.Entry<String, Column> column : concat(columns, PROFILE_COLUMNS)) {
                String unit = unitOf(column.getKey());
                String cell = cellOrNull(column.getValue(), row);
                if (unit != null && cell != null) {
                    String kind = kindOf(column.getKey());
                    Matcher number = ANY_NUMBER.matcher(cell);
                    while (number.find()) {
                        numbers.add(number.group() + " " + unit);
                        if (kind != null) {
                            numbers.add(number.group() + " " + unit + " " + kind);
                        }
                    }
                }
            }
            // figures no column shows but sentences quote bare: the A/A twin's ratios to its row
            for (String ratio : List.of("twinTpsRatio", "twinCpuRatio")) {
                for (String end : List.of("estimate", "low", "high")) {
                    Double value = row.number(ratio + "." + end);
                    if (value != null) {
                        numbers.add(Format.ratio(value) + " " + BARE);
                    }
                }
            }
            figures.put(row.id(), numbers);
        }
        PublishedFigures published = new PublishedFigures("the reference run", rows, figures, columns, true, report);
        published.rounds = Ranking.rounds(Report.Summary.of(summary));
        return published;
    }

    /**
     * The servers run (docs/results/servers/): each row's TPS, its ratio to the first server's and its CPU per request,
     * module and server, on every server, as its report writes them. Its page's table is not checked here: its rows must be
     * its report's, line for line.
     */
    @SuppressWarnings("unchecked")
    static PublishedFigures ofServersRun(Map<String, Object> summary, String report) {
        Map<String, Object> servers = (Map<String, Object>) ((Map<String, Object>) summary.get("scenarios")).get("servers");
        Map<String, Row> rows = new LinkedHashMap<>();
        Map<String, Set<String>> figures = new LinkedHashMap<>();
        servers.forEach((module, onServers) -> {
            rows.put(module, new Row(module, (Map<String, Object>) onServers));
            Set<String> numbers = new TreeSet<>();
            Double base = null;
            // a server's label has dots (Redis 6.2.11), so its figures are read without a path
            for (Object cell : ((Map<String, Object>) onServers).values()) {
                Map<String, Object> figuresOnServer = (Map<String, Object>) cell;
                for (String figure : List.of("tps", "moduleCpuMicros", "storeCpuMicros", "cpuMicros")) {
                    Row spread = new Row(module, (Map<String, Object>) figuresOnServer.get(figure));
                    for (String value : List.of("median", "min", "max")) {
                        if (spread.number(value) != null) {
                            numbers.add(Format.grouped(spread.number(value)) + (figure.equals("tps") ? " TPS" : " µs"));
                        }
                    }
                }
                Double tps = new Row(module, figuresOnServer).number("tps.median");
                base = base == null ? tps : base;
                if (tps != null && base != null) {
                    numbers.add(Format.ratio(tps / base) + " ×");
                }
            }
            figures.put(module, numbers);
        });
        return new PublishedFigures("the servers run", rows, figures, Map.of(), false, report);
    }

    /** What a page gets wrong, each as {@code file:line: what}; empty when every figure is the run's, in its place. */
    List<String> problems(String file, String markdown) {
        return problems(file, markdown, true);
    }

    /** What the tables of a page get wrong: of the run's own report, whose sentences are where its aggregates come from. */
    List<String> tableProblems(String file, String markdown) {
        return problems(file, markdown, false);
    }

    private List<String> problems(String file, String markdown, boolean withProse) {
        List<String> problems = new ArrayList<>();
        for (Unit unit : units(withoutQuotes(markdown))) {
            if (unit.table() != null) {
                if (tables) {
                    problems.addAll(table(file, unit.table(), withProse));
                }
                continue;
            }
            if (withProse) {
                for (Sentence sentence : sentences(unit)) {
                    problems.addAll(prose(file, sentence, named(sentence.text())));
                }
            }
        }
        return problems;
    }

    /**
     * {@code markdown} with each quote of another published run ({@code <!-- quotes docs/results/<run> -->} to
     * {@code <!-- end of quote -->}) blanked, its lines kept: a quote's figures are that run's, which PublishedResultsTest checks
     * against it, not against this run.
     */
    static String withoutQuotes(String markdown) {
        Matcher quote = Pattern.compile("(?s)<!-- quotes docs/results/[a-z0-9-]+ -->.*?<!-- end of quote -->").matcher(markdown);
        StringBuilder kept = new StringBuilder();
        while (quote.find()) {
            quote.appendReplacement(kept, Matcher.quoteReplacement("\n".repeat((int) quote.group().chars().filter(c -> c == '\n').count())));
        }
        quote.appendTail(kept);
        return kept.toString();
    }

    // ---- tables ---------------------------------------------------------------------------------------------------------

    private List<String> table(String file, Table table, boolean withProse) {
        List<String> problems = new ArrayList<>();
        List<String> header = table.header();
        // the column that names the rows: the first, or the second after a rank
        int nameColumn = header.get(0).equals("rank") && header.size() > 1 ? 1 : 0;
        boolean ofRows = table.rows().stream().anyMatch(line -> line.cells().size() > nameColumn && rowOf(line.cells().get(nameColumn)) != null);
        if (!ofRows) {
            // a table of other things (the run's settings, a module's commands): its cells are prose naming what they name
            for (Line line : withProse ? table.rows() : List.<Line>of()) {
                for (String cell : line.cells()) {
                    problems.addAll(prose(file, new Sentence(cell, new int[] {line.number()}, new int[] {0}), named(cell)));
                }
            }
            return problems;
        }
        Map<String, Column> known = header.contains("flame graph") ? PROFILE_COLUMNS
                : header.contains("rank") ? ranking(table.rows().stream().map(line -> rowOf(line.cells().get(nameColumn))).filter(Objects::nonNull).toList(), header)
                : columns;
        for (String title : header.stream().filter(title -> header.indexOf(title) != nameColumn).toList()) {
            if (!known.containsKey(title)) {
                problems.add("%s:%d: the column '%s' is not in PublishedFigures.%s: add the field its cells hold, or UNCHECKED".formatted(file,
                        table.headerLine(), title, known == PROFILE_COLUMNS ? "PROFILE_COLUMNS" : "COLUMNS"));
            }
        }
        for (Line line : table.rows()) {
            Row row = rowOf(line.cells().get(nameColumn));
            if (row == null) {
                problems.add("%s:%d: '%s' names no row of %s".formatted(file, line.number(), line.cells().get(nameColumn), run));
                continue;
            }
            for (int column = 0; column < Math.min(header.size(), line.cells().size()); column++) {
                if (column == nameColumn) {
                    continue;
                }
                Column rule = known.get(header.get(column));
                String expected = rule == null ? null : cellOrNull(rule, row);
                String cell = plain(line.cells().get(column));
                if (rule == UNCHECKED && withProse) {
                    // words of the page's own: a figure in them is still one of the row's, or of a row they name
                    List<String> named = new ArrayList<>(List.of(row.id()));
                    named.addAll(named(cell));
                    problems.addAll(prose(file, new Sentence(cell, new int[] {line.number()}, new int[] {0}), named));
                }
                if (expected != null && !expected.equals(cell)) {
                    problems.add("%s:%d: %s's '%s' is '%s' in %s, not '%s'".formatted(file, line.number(), row.id(), header.get(column), expected,
                            run, cell));
                }
            }
        }
        return problems;
    }

    /**
     * The columns of a table that ranks rows: its rank, and (report.md's unnamed last column) whether it is level with the row
     * ranked before it, both from the one ranking ({@link Ranking}, which the report draws its own from) over the rows of the
     * same table. A table that ranks must show the figure it ranks by ({@link Ranking#COLUMN}): one that ranks by another
     * figure, or in another order, fails on its ranks.
     */
    private Map<String, Column> ranking(List<Row> inTable, List<String> header) {
        Map<String, Column> ranking = new LinkedHashMap<>(columns);
        if (!header.contains(Ranking.COLUMN)) {
            ranking.put("rank", row -> "a table that ranks shows '" + Ranking.COLUMN + "', the one figure every page ranks by");
            return ranking;
        }
        List<Ranking.Place> places = Ranking.of(inTable.stream().filter(row -> row.fields().get("twinOf") == null && row.fields().get(Ranking.FIGURE) instanceof Map)
                .map(row -> new Ranking.Entry(row.id(), row.number(Ranking.FIGURE + ".estimate"), row.number(Ranking.FIGURE + ".low"), row.number(Ranking.FIGURE + ".high"))).toList(), rounds);
        ranking.put("rank", row -> places.stream().filter(place -> place.id().equals(row.id())).findFirst().map(place -> String.valueOf(place.rank()))
                .orElse("no rank: the A/A twin, or a row without its CPU per request"));
        ranking.put("", row -> places.stream().filter(place -> place.id().equals(row.id())).findFirst()
                .map(place -> place.levelWith() == null ? "" : "level with " + place.levelWith()).orElse(""));
        return ranking;
    }

    /** The row a table's first cell names: {@code [template-mget](modules/template-mget)}, {@code in-memory (tuned)}, ... */
    private Row rowOf(String cell) {
        Matcher link = Pattern.compile("\\[([^\\]]+)\\]").matcher(cell);
        String name = plain(link.find() ? link.group(1) : cell);
        return name.isEmpty() ? null : rows.get(name.split("\\s")[0]);
    }

    private static String plain(String cell) {
        return cell.replaceAll("[`*]", "").strip();
    }

    private static String cellOrNull(Column column, Row row) {
        try {
            return column.cell(row);
        }
        catch (RuntimeException missing) {
            return "missing";
        }
    }

    // ---- prose ----------------------------------------------------------------------------------------------------------

    private List<String> prose(String file, Sentence sentence, List<String> named) {
        List<String> problems = new ArrayList<>();
        Set<String> theirs = new HashSet<>();
        named.forEach(row -> theirs.addAll(figures.get(row)));
        Matcher figure = FIGURE.matcher(sentence.text());
        while (figure.find()) {
            java.util.Optional<String> found = figureOf(figure);
            if (found.isEmpty() || allowed(sentence.text(), figure.start(), figure.end())) {
                continue;
            }
            // the words after a figure name its column: "54.3 % of the ceiling", "1.59× its floor", "17.12× the loop"
            String kind = named.isEmpty() ? null : kindAfter(sentence.text().substring(figure.end()));
            String wanted = kind == null ? found.get() : found.get() + " " + kind;
            if ((named.isEmpty() ? aggregates : theirs).contains(wanted)) {
                continue;
            }
            String whose = named.isEmpty() ? "the sentence names no row, and it is no aggregate figure of " + run
                    : "it is no " + (kind == null ? "figure" : "'" + kind + "' figure") + " of " + String.join(" or ", named) + ", the row"
                            + (named.size() == 1 ? "" : "s") + " the sentence names";
            problems.add("%s:%d: %s: %s: \"%s\"".formatted(file, sentence.lineOf(figure.start()), figure.group().strip(), whose,
                    shortened(sentence.text())));
        }
        // a figure without a unit: a ratio written bare, "came out 0.95 and 0.98", is one of the named rows' ratios
        Matcher bare = BARE_RATIO.matcher(sentence.text());
        while (bare.find() && !named.isEmpty()) {
            String number = bare.group(1);
            if (theirs.contains(number + " " + BARE) || theirs.contains(number + " ×") || allowed(sentence.text(), bare.start(), bare.end())) {
                continue;
            }
            problems.add("%s:%d: %s: it is no figure of %s, the row%s the sentence names: \"%s\"".formatted(file, sentence.lineOf(bare.start()), number,
                    String.join(" or ", named), named.size() == 1 ? "" : "s", shortened(sentence.text())));
        }
        return problems;
    }

    /** How a row's unit-less ratios are kept among its figures. */
    private static final String BARE = "bare";

    /** A number with two decimals and no unit after it: a ratio written bare. Not a version (8.1.1), not a figure with a unit. */
    private static final Pattern BARE_RATIO = Pattern.compile("(?<![\\w.,])(\\d+\\.\\d\\d)(?![\\d.]|\\s?(?:TPS|µs|×|%|ms|s\\b|MB|KB|GB|Gbit| times))");

    /**
     * The column a header's figures belong to, as sentences name it: {@code ceiling} (% of ceiling), {@code floor}
     * (x floor), {@code loop} (x loop); null for any other, whose figures a sentence matches by unit alone.
     */
    static String kindOf(String header) {
        if (header.startsWith("% of ceiling")) {
            return "ceiling";
        }
        if (header.startsWith("x floor")) {
            return "floor";
        }
        if (header.startsWith("x loop") || header.startsWith("x cacheable-loop")) {
            return "loop";
        }
        return null;
    }

    /** The column the words right after a figure name, or null: "of the ceiling", "its floor", "the loop". */
    static String kindAfter(String after) {
        String words = after.stripLeading().toLowerCase(java.util.Locale.ROOT);
        if (words.matches("(?s)(of )?(the |its )?ceiling.*") || words.matches("(?s)of the ceiling's.*")) {
            return "ceiling";
        }
        if (words.matches("(?s)(of )?(the |its )?floor.*")) {
            return "floor";
        }
        if (words.matches("(?s)(of )?(the )?loop.*") || words.matches("(?s)(of )?cacheable-loop.*")) {
            return "loop";
        }
        return null;
    }

    /** A figure as a row's figures are kept: {@code 1.56 ×} for {@code 1.56×} and {@code 1.56 times}; none for {@code 148 times}. */
    private static java.util.Optional<String> figureOf(Matcher figure) {
        String number = figure.group(1);
        if (figure.group(3) != null) {
            return number.contains(".") ? java.util.Optional.of(number + " ×") : java.util.Optional.empty();
        }
        return java.util.Optional.of(number + " " + figure.group(2));
    }

    /**
     * The unit of a column's figures, from its header: × for a ratio ("x floor"), µs, % or TPS; none for counts and words,
     * whose numbers no sentence is checked against.
     */
    static String unitOf(String header) {
        if (header.startsWith("x ")) {
            return "×";
        }
        return java.util.stream.Stream.of("µs", "%", "TPS").filter(header::contains).findFirst().orElse(null);
    }

    private static boolean allowed(String text, int start, int end) {
        for (String phrase : ALLOWED) {
            for (int at = text.indexOf(phrase); at >= 0; at = text.indexOf(phrase, at + 1)) {
                if (at <= start && end <= at + phrase.length()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The rows a text names by their ids, longest first so that mget-floor+spring-data is not mget-floor. */
    private List<String> named(String text) {
        // a link's target names a page, not a row: [the floor](../modules/mget-floor#what-each-lever-gives)
        Matcher name = rowNames.matcher(text.replaceAll("\\]\\([^)]*\\)", "]"));
        Set<String> found = new java.util.LinkedHashSet<>();
        while (name.find()) {
            found.add(name.group(1));
        }
        return List.copyOf(found);
    }

    private static String shortened(String text) {
        return text.length() <= 160 ? text : text.substring(0, 157) + "...";
    }

    // ---- reading markdown -----------------------------------------------------------------------------------------------

    record Line(int number, List<String> cells) {
    }

    record Table(int headerLine, List<String> header, List<Line> rows) {
    }

    /** A paragraph, list item, heading or code line, its text joined with the line each part starts on; or a table. */
    record Unit(String text, int[] lines, int[] offsets, Table table, boolean code) {
    }

    /** A sentence, and where in the page each part of it starts. */
    record Sentence(String text, int[] lines, int[] offsets) {

        int lineOf(int offset) {
            int line = lines[0];
            for (int i = 0; i < offsets.length && offsets[i] <= offset; i++) {
                line = lines[i];
            }
            return line;
        }
    }

    private static List<Unit> units(String markdown) {
        List<Unit> units = new ArrayList<>();
        String[] lines = markdown.split("\n", -1);
        StringBuilder text = new StringBuilder();
        List<Integer> lineNumbers = new ArrayList<>();
        List<Integer> offsets = new ArrayList<>();
        boolean code = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            String stripped = line.strip();
            boolean fence = stripped.startsWith("```");
            // a blank line, a fence, a table, a heading, a list item or a line of code ends the text before it
            boolean ends = stripped.isEmpty() || fence || code || stripped.startsWith("|") || stripped.startsWith("#")
                    || stripped.matches("([-*]|\\d+\\.) .*");
            if (ends && !text.isEmpty()) {
                units.add(unit(text, lineNumbers, offsets, code));
            }
            if (fence) {
                code = !code;
                continue;
            }
            if (stripped.startsWith("|") && !code) {
                int header = i;
                List<String> head = cells(line);
                List<Line> rows = new ArrayList<>();
                while (i + 1 < lines.length && lines[i + 1].strip().startsWith("|")) {
                    i++;
                    List<String> cells = cells(lines[i]);
                    if (!cells.stream().allMatch(cell -> cell.matches(":?-*:?"))) {
                        rows.add(new Line(i + 1, cells));
                    }
                }
                units.add(new Unit("", new int[0], new int[0], new Table(header + 1, head, rows), false));
                continue;
            }
            if (stripped.isEmpty()) {
                continue;
            }
            if (!text.isEmpty()) {
                text.append(' ');
            }
            offsets.add(text.length());
            lineNumbers.add(i + 1);
            text.append(stripped);
        }
        if (!text.isEmpty()) {
            units.add(unit(text, lineNumbers, offsets, code));
        }
        return units;
    }

    private static Unit unit(StringBuilder text, List<Integer> lines, List<Integer> offsets, boolean code) {
        Unit unit = new Unit(text.toString(), lines.stream().mapToInt(Integer::intValue).toArray(),
                offsets.stream().mapToInt(Integer::intValue).toArray(), null, code);
        text.setLength(0);
        lines.clear();
        offsets.clear();
        return unit;
    }

    /** A unit's sentences: split after a full stop, question or exclamation mark (and the end of a bold run) followed by a space. */
    private static List<Sentence> sentences(Unit unit) {
        List<Sentence> sentences = new ArrayList<>();
        Matcher end = Pattern.compile("(?<=[.!?])[*_]*\\s+").matcher(unit.text());
        int from = 0;
        while (true) {
            boolean found = end.find();
            int to = found ? end.start() : unit.text().length();
            List<Integer> lines = new ArrayList<>();
            List<Integer> offsets = new ArrayList<>();
            for (int i = 0; i < unit.offsets().length; i++) {
                int next = i + 1 < unit.offsets().length ? unit.offsets()[i + 1] : Integer.MAX_VALUE;
                if (next > from && unit.offsets()[i] < Math.max(to, from + 1)) {
                    lines.add(unit.lines()[i]);
                    offsets.add(Math.max(0, unit.offsets()[i] - from));
                }
            }
            sentences.add(new Sentence(unit.text().substring(from, to), lines.stream().mapToInt(Integer::intValue).toArray(),
                    offsets.stream().mapToInt(Integer::intValue).toArray()));
            if (!found) {
                return sentences;
            }
            from = end.end();
        }
    }

    private static List<String> cells(String line) {
        String inner = line.strip();
        inner = inner.substring(1, inner.endsWith("|") && inner.length() > 1 ? inner.length() - 1 : inner.length());
        List<String> cells = new ArrayList<>();
        for (String cell : inner.split("\\|", -1)) {
            cells.add(cell.strip());
        }
        return cells;
    }

    // ---- how the report writes a cell -----------------------------------------------------------------------------------

    /** A field, as the report writes it; "n/a" where the run has none (the ceiling's x floor). */
    static Column field(String path, Function<Double, String> format) {
        return row -> {
            Double value = row.number(path);
            return value == null ? "n/a" : format.apply(value);
        };
    }

    /** The median of the repetitions and their range: {@code 59 (52-93)}, from a field {@code {median, min, max}}. */
    static Column spread(String path, Function<Double, String> format) {
        return range(path + ".median", path + ".min", path + ".max", format);
    }

    /** An estimate and its 95 % interval: {@code 1.56 (1.49-1.63)}, from a field {@code {estimate, low, high}}. */
    static Column interval(String path, Function<Double, String> format) {
        return range(path + ".estimate", path + ".low", path + ".high", format);
    }

    /** The same, {@code n/a} where the run has no such figure for the row (a near cache's x floor). */
    static Column intervalOrNa(String path, Function<Double, String> format) {
        return row -> row.number(path + ".estimate") == null ? "n/a" : interval(path, format).cell(row);
    }

    /** A figure and a range around it, from three fields: {@code 7,750 (6,832-10,279)} from tpsMedian, tpsMin, tpsMax. */
    static Column range(String value, String low, String high, Function<Double, String> format) {
        return row -> row.number(value) == null ? "missing"
                : "%s (%s-%s)".formatted(format.apply(row.number(value)), format.apply(row.number(low)), format.apply(row.number(high)));
    }

    /** Words the report writes as they are in summary.json: {@code 148 GET}. */
    static Column words(String path) {
        return row -> Objects.toString(row.at(path), "");
    }

    static Column joined(String separator, Column... parts) {
        return row -> java.util.Arrays.stream(parts).map(part -> part.cell(row)).collect(Collectors.joining(separator));
    }

    /** The module's and the store's CPU per request and their sum, medians: {@code 128 + 35 = 163}, and the sum's range. */
    static Column moduleAndStore(boolean withRange) {
        Column sum = row -> "%s + %s = %s".formatted(micros(row, "cpu.moduleMicros.median"), micros(row, "cpu.storeMicros.median"),
                micros(row, "cpu.totalMicros.median"));
        Column range = row -> " (%s-%s)".formatted(micros(row, "cpu.totalMicros.min"), micros(row, "cpu.totalMicros.max"));
        return row -> row.number("cpu.totalMicros.median") == null ? "missing" : sum.cell(row) + (withRange ? range.cell(row) : "");
    }

    private static String micros(Row row, String path) {
        return ReportView.micros(row.number(path));
    }

    /** A ratio as the pages' "x loop" columns write it, one decimal: {@code 15.5×}. */
    static String times(double ratio) {
        return String.format(Locale.ROOT, "%.1f×", ratio);
    }

    /** A bucket's share of the row's CPU, as the profiles' table writes it: {@code 34.8}, {@code 15}. */
    static String share(double percent) {
        return Format.number(Math.round(percent * 10) / 10.0);
    }

    /** The source post's loop as the report writes it: {@code 1.00 (65 TPS)}, "-" where the row had none. */
    private static String sourcePost(Row row) {
        return row.number("sourcePostTps") == null ? "-"
                : field("sourcePostRatioToReference", Format::ratio).cell(row) + " (" + Format.number(row.number("sourcePostTps")) + " TPS)";
    }

    /** results.md's last column: tuned (the row sets something beyond the stock pattern), stock variant, known stale. */
    private static String tags(Row row) {
        Object tuning = row.at("tuning");
        List<String> tags = new ArrayList<>();
        if (tuning != null) {
            tags.add(tuning.toString().startsWith(Summaries.STOCK) ? "stock variant" : "tuned");
        }
        if (row.at("knownStale") != null) {
            tags.add("known stale");
        }
        if (row.at("twinOf") != null) {
            tags.add("A/A twin of " + row.at("twinOf"));
        }
        return String.join(", ", tags);
    }

    private static Map<String, Column> profileColumns() {
        Map<String, Column> columns = new LinkedHashMap<>();
        columns.put("samples", field("profile.samples", Format::grouped));
        Profiler.buckets().forEach(bucket -> columns.put(bucket + " %", field("profile.buckets." + bucket, PublishedFigures::share)));
        columns.put("flame graph", words("profile.flameGraph"));
        return Map.copyOf(columns);
    }

    private static List<Map.Entry<String, Column>> concat(Map<String, Column> first, Map<String, Column> second) {
        List<Map.Entry<String, Column>> all = new ArrayList<>(first.entrySet());
        all.addAll(second.entrySet());
        return all;
    }
}
