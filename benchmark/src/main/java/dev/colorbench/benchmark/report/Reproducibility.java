package dev.colorbench.benchmark.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

import dev.colorbench.benchmark.Format;
import dev.colorbench.testkit.statistics.Interval;
import dev.colorbench.testkit.statistics.Statistics;

/**
 * Two full runs side by side: every headline ratio of each row in the reference run and in another run, each with its
 * interval, how far the other run moved from the reference, how many rows settled in each, and whether the two rank the
 * rows in one order. The other run is the repeat (the same commit again, docs/results.md#the-same-code-twice) or a run with
 * the CPU halved (docs/measuring.md#on-a-slower-machine). Written from the two summary.json files alone, so that each
 * comparison.md can be checked against them.
 */
final class Reproducibility {

    /** What the other run is: its folder under docs/results, the page's title, and the run's name in its sentences. */
    enum Kind {
        /** The reference run's commit again, on the same processor: what one run's figures carry to the next. */
        REPEAT("repeat", "The same commit twice: the reference run and its repeat", "the repeat"),
        /** The reference run's commit again, on another processor of a VM of the same size: what carries to another machine. */
        ELSEWHERE("elsewhere", "The same commit on another processor: the reference run and its repeat elsewhere", "the repeat elsewhere"),
        HALVED("halved", "The reference run and a run with the CPU halved", "the run with the CPU halved"),
        /**
         * A published full run's commit on some of its rows, on its machine: whether a row's figures owe anything to the rows run
         * beside it (docs/measuring.md#the-floor).
         */
        FEWER_ROWS("fewer-rows", "The same commit on fewer rows: a full run and a run of some of its rows, on one machine", "the run of fewer rows");

        final String folder;

        final String title;

        final String name;

        Kind(String folder, String title, String name) {
            this.folder = folder;
            this.title = title;
            this.name = name;
        }
    }

    /**
     * The full run a comparison sets its run beside: the reference run, or for a run of fewer rows the published full run of the
     * machine it ran on (its processor and its host's build), since another machine moves a row's microseconds by more than the
     * rows beside it could. {@code folder} is under docs/results, empty for the reference run.
     */
    record Base(String folder, String name, String column) {

        static final Base REFERENCE = new Base("", "the reference run", "reference");

        static final Base ELSEWHERE = new Base(Kind.ELSEWHERE.folder, Kind.ELSEWHERE.name, Kind.ELSEWHERE.folder);

        String summary() {
            return "docs/results/" + (folder.isEmpty() ? "" : folder + "/") + "summary.json";
        }

        String capitalized() {
            return Character.toUpperCase(name.charAt(0)) + name.substring(1);
        }
    }

    /** A headline ratio: its summary.json field, the record component that holds its interval, and its column's name. */
    record Ratio(String field, Function<ModuleSummary, Interval> interval, String name) {
    }

    static final List<Ratio> RATIOS = List.of(new Ratio(Ranking.FIGURE, ModuleSummary::cpuMicros, "CPU µs / request"),
            new Ratio("ratioToReference", ModuleSummary::ratioToReferenceInterval, "x loop"),
            new Ratio("floorRatio", ModuleSummary::floorRatioInterval, "x floor"),
            new Ratio("percentOfCeiling", ModuleSummary::percentOfCeilingInterval, "% of ceiling"));

    private Reproducibility() {
    }

    /** One row's ratio in both runs; {@code movedPercent} is how far the repeat's estimate is from the reference's. */
    record Pair(String module, Ratio ratio, Interval reference, Interval repeat) {

        double movedPercent() {
            return Math.abs(repeat.estimate() / reference.estimate() - 1) * 100;
        }

        boolean intervalsOverlap() {
            return reference.overlaps(repeat);
        }
    }

    /** Every headline figure of every row that both runs measured, in the reference run's order; the ceiling's own 100 % left out. */
    static List<Pair> pairs(Report.Summary reference, Report.Summary repeat) {
        List<Pair> pairs = new ArrayList<>();
        for (ModuleSummary row : reference.modules()) {
            Optional<ModuleSummary> again = repeat.modules().stream().filter(other -> other.module().equals(row.module())).findFirst();
            for (Ratio ratio : RATIOS) {
                Interval first = ratio.interval().apply(row);
                Interval second = again.map(ratio.interval()).orElse(null);
                if (first != null && second != null && !(first.estimate() == 100 && first.high() == 100 && ratio.field().equals("percentOfCeiling"))
                        && !(first.estimate() == 1 && first.low() == 1 && first.high() == 1)) {
                    pairs.add(new Pair(row.module(), ratio, first, second));
                }
            }
        }
        return pairs;
    }

    /** The comparison page: one table row per row and ratio, then the largest move and how many moved more than 5 %. */
    static String markdown(Report.Summary reference, Report.Summary repeat) {
        return markdown(reference, repeat, Kind.REPEAT);
    }

    /** The comparison page of the reference run and {@code other}, a run of the given kind. */
    static String markdown(Report.Summary reference, Report.Summary other, Kind kind) {
        return markdown(Base.REFERENCE, reference, other, kind);
    }

    /** The comparison page of {@code reference}, the full run {@code base} names, and {@code other}, a run of the given kind. */
    static String markdown(Base base, Report.Summary reference, Report.Summary other, Kind kind) {
        Environment first = reference.environment();
        Environment second = other.environment();
        List<Pair> pairs = pairs(reference, other);
        StringBuilder page = new StringBuilder();
        page.append("# ").append(kind.title).append("\n\n");
        boolean oneCommit = String.valueOf(first.gitCommit()).equals(String.valueOf(second.gitCommit()));
        page.append("Written by `./mvnw -Ppublish -pl benchmark -am verify -Dpublish.as=%s` from %s (%s) and docs/results/%s/summary.json (%s), %s; the rounds' orders from seed %s and seed %s.%s\n\n"
                .formatted(kind.folder, base.summary(), first.date(), kind.folder, second.date(),
                        oneCommit ? "both of commit `%s`".formatted(first.gitCommit())
                                : "of commits `%s` and `%s`".formatted(first.gitCommit(), second.gitCommit()),
                        seed(first), seed(second),
                        second.cpuQuota() != null ? " The second ran on %s cores under a CPU quota of %s of them (a cgroup's)."
                                .formatted(second.cores(), Format.number(second.cpuQuota())) : ""));
        page.append(processors(base, first, second, kind)).append("\n\n");
        page.append("| row | ratio | %s (95 %% interval) | %s (95 %% interval) | moved |\n| --- | --- | --: | --: | --: |\n".formatted(base.column(), kind.folder));
        for (Pair pair : pairs) {
            page.append("| %s | %s | %s | %s | %s %% |\n".formatted(pair.module(), pair.ratio().name(), cell(pair.ratio(), pair.reference()),
                    cell(pair.ratio(), pair.repeat()), String.format(Locale.ROOT, "%.1f", pair.movedPercent())));
        }
        for (ModuleSummary twin : twins(reference)) {
            ModuleSummary again = twins(other).stream().filter(row -> row.module().equals(twin.module())).findFirst().orElse(null);
            page.append("\nThe A/A pair, %s against %s: TPS %s, CPU per request %s in %s; %s and %s in %s.\n".formatted(
                    twin.module(), twin.twinOf(), aa(twin, ModuleSummary::twinTpsRatio), aa(twin, ModuleSummary::twinCpuRatio), base.name(),
                    aa(again, ModuleSummary::twinTpsRatio), aa(again, ModuleSummary::twinCpuRatio), kind.name));
        }
        reference(reference).ifPresent(row -> reference(other).ifPresent(again -> page.append(
                "\nThe row every x loop is over, %s: %s TPS at %s µs a request in %s; %s TPS at %s µs in %s.\n".formatted(
                        row.module(), Format.grouped(row.tps().estimate()), ReportView.micros(row.cpuMicros().estimate()), base.name(),
                        Format.grouped(again.tps().estimate()), ReportView.micros(again.cpuMicros().estimate()), kind.name))));
        Pair most = pairs.stream().max(java.util.Comparator.comparingDouble(Pair::movedPercent)).orElse(null);
        long over = pairs.stream().filter(pair -> pair.movedPercent() > 5).count();
        long apart = pairs.stream().filter(pair -> !pair.intervalsOverlap()).count();
        if (most != null) {
            page.append("\n%d ratios in both runs. The largest move: %s's %s, %s %%. Moved more than 5 %%: %d of %d. Intervals that do not overlap: %d of %d.\n"
                    .formatted(pairs.size(), most.module(), most.ratio().name(), String.format(Locale.ROOT, "%.1f", most.movedPercent()), over, pairs.size(),
                            apart, pairs.size()));
        }
        for (Ratio ratio : RATIOS) {
            List<Pair> of = pairs.stream().filter(pair -> pair.ratio() == ratio).toList();
            of.stream().max(java.util.Comparator.comparingDouble(Pair::movedPercent)).ifPresent(largest -> page.append(
                    "\n%s: %d of %d rows moved 5 %% or less; the largest move %s %%, %s's.\n".formatted(ratio.name(),
                            of.stream().filter(pair -> pair.movedPercent() <= 5).count(), of.size(),
                            String.format(Locale.ROOT, "%.1f", largest.movedPercent()), largest.module())));
        }
        if (kind == Kind.FEWER_ROWS) {
            page.append(floors(base, reference, other, pairs));
        }
        page.append("\nRows settled in their warm-up: %s in %s, %s in %s.\n".formatted(settled(first), base.name(), settled(second), kind.name));
        List<String[]> reversed = reversed(reference, other);
        long separated = apartInBoth(reference, other);
        page.append("\nThe ranking (%s): of %d pair%s of rows ranked apart in both runs, %s.\n".formatted(Ranking.COLUMN.replace(" (95 % interval)", ""),
                separated, separated == 1 ? "" : "s", reversed.isEmpty() ? "none is in the opposite order"
                        : reversed.size() + (reversed.size() == 1 ? " is" : " are") + " in the opposite order: "
                                + reversed.stream().map(pair -> pair[0] + " before " + pair[1] + " in " + base.name())
                                        .collect(java.util.stream.Collectors.joining(", "))));
        List<String[]> leaning = leaningTheOtherWay(reference, other, base.name(), kind.name);
        long apartInOne = orders(reference, other).stream().filter(order -> (order.inReference() == 0) != (order.inOther() == 0)).count();
        page.append("\nOf %d pair%s of rows ranked apart in one run and level in the other, %s.\n".formatted(apartInOne, apartInOne == 1 ? "" : "s",
                leaning.isEmpty() ? "none leans the other way in the run that calls it level"
                        : leaning.size() + (leaning.size() == 1 ? " leans" : " lean") + " the other way in the run that calls it level: "
                                + leaning.stream().map(pair -> pair[0] + " before " + pair[1] + " in " + pair[2])
                                        .collect(java.util.stream.Collectors.joining(", "))));
        return page.toString();
    }

    /**
     * The floor in both runs, and how many rows' x floor intervals overlap: the figure that must not depend on which rows ran
     * (docs/measuring.md#the-floor).
     */
    private static String floors(Base base, Report.Summary reference, Report.Summary other, List<Pair> pairs) {
        List<Pair> floor = pairs.stream().filter(pair -> pair.ratio().field().equals("floorRatio")).toList();
        List<String> apart = floor.stream().filter(pair -> !pair.intervalsOverlap()).map(Pair::module).toList();
        StringBuilder text = new StringBuilder();
        if (reference.floor() != null && reference.floor().micros() != null && other.floor() != null && other.floor().micros() != null) {
            text.append("\nThe floor: %s µs a request in %s, %s in %s.\n".formatted(micros(reference.floor().micros()), base.name(),
                    micros(other.floor().micros()), Kind.FEWER_ROWS.name));
        }
        text.append("\nx floor, which must not depend on which rows ran: %d of %d rows' intervals overlap %s's%s.\n".formatted(
                floor.size() - apart.size(), floor.size(), base.name(), apart.isEmpty() ? "" : "; apart: " + String.join(", ", apart)));
        // x loop sets two rows of both runs against each other and no floor enters it: where it moved too, the rows' own cost did
        List<String> loopApart = pairs.stream().filter(pair -> pair.ratio().field().equals("ratioToReference") && apart.contains(pair.module())
                && !pair.intervalsOverlap()).map(Pair::module).toList();
        if (!loopApart.isEmpty()) {
            text.append("\nx loop, which no floor enters, is apart too for %s: what moved is %s cost against the loop, not the floor.\n"
                    .formatted(String.join(", ", loopApart), loopApart.size() == 1 ? "that row's" : "those rows'"));
        }
        return text.toString();
    }

    /** {@code 117 (108-127)}: CPU µs with its interval, as the report gives them. */
    private static String micros(Interval interval) {
        return "%s (%s-%s)".formatted(ReportView.micros(interval.estimate()), ReportView.micros(interval.low()), ReportView.micros(interval.high()));
    }

    /** Which processor each run had, as the run recorded it; when they differ, that its figures are not expected to carry. */
    private static String processors(Base base, Environment first, Environment second, Kind kind) {
        String one = first.cpuModel() == null ? "a processor not recorded" : first.cpuModel();
        String two = second.cpuModel() == null ? "a processor not recorded" : second.cpuModel();
        if (one.equals(two)) {
            // the model's name alone does not make two machines one: a host of another build can run the same code at other speeds
            if (first.os() != null && second.os() != null && !first.os().equals(second.os())) {
                return ("Both ran on %d cores of %s, %s under %s, %s under %s: another host's build, whose microseconds"
                        + " may differ row by row.").formatted(first.cores(), one, base.name(), first.os(), kind.name, second.os());
            }
            return "Both ran on %d cores of %s.".formatted(first.cores(), one);
        }
        return ("%s ran on %d cores of %s, %s on %d cores of %s: another processor, whose microseconds differ row by row,"
                + " so this page shows what carries to another machine of this size, not only to another run.").formatted(base.capitalized(), first.cores(), one,
                        kind.name, second.cores(), two);
    }

    /** The seed a run's rounds' orders came from, or {@code fixed} for a run written before runs drew one. */
    private static String seed(Environment environment) {
        return environment.seed() == null ? "fixed" : String.valueOf(environment.seed());
    }

    /** {@code 17 of 18}: how many of a run's rows settled in their warm-up, or {@code not recorded}. */
    private static String settled(Environment environment) {
        return environment.rowsSettled() != null && environment.modules() != null
                ? environment.rowsSettled() + " of " + environment.modules().size() : "not recorded";
    }

    /** The rows a run ranks: every row with its CPU per request but the A/A twin. */
    private static List<String> ranked(Report.Summary run) {
        return run.modules().stream().filter(row -> row.twinOf() == null && row.cpuMicros() != null).map(ModuleSummary::module).toList();
    }

    /**
     * -1 when the run ranks {@code a} below {@code b}, 1 when above, 0 when level: the ranking's own rule, the interval of the
     * two rows' ratio within each round ({@link Statistics.Rounds#apart}), whatever ranks a third row gives them.
     */
    private static int order(Statistics.Rounds rounds, String a, String b) {
        if (!rounds.apart(a, b)) {
            return 0;
        }
        return rounds.ratio(a, b).estimate() < 1 ? -1 : 1;
    }

    /**
     * Two rows both runs rank, and in each where the first's interval lies against the second's: -1 below, 0 level, 1 above; and
     * on which side of 1 each run's estimate of their ratio lies.
     */
    private record Order(String first, String second, int inReference, int inOther, int leanInReference, int leanInOther) {
    }

    /** How many pairs of rows both runs rank apart (each run's intervals separate them). */
    private static long apartInBoth(Report.Summary reference, Report.Summary other) {
        return orders(reference, other).stream().filter(order -> order.inReference() != 0 && order.inOther() != 0).count();
    }

    /** The pairs of rows both runs rank apart, in opposite orders: {@code {first in the reference run, second}}. */
    static List<String[]> reversed(Report.Summary reference, Report.Summary other) {
        return orders(reference, other).stream().filter(order -> order.inReference() * order.inOther() < 0)
                .map(order -> order.inReference() < 0 ? new String[] {order.first(), order.second()} : new String[] {order.second(), order.first()}).toList();
    }

    /**
     * The pairs of rows one run ranks apart and the other calls level, with the other run's estimate of their ratio on the other
     * side of 1: {@code {first in the run that ranks them, second, that run}}. Both runs wrong in opposite directions is what a
     * reversal between two runs that both rank a pair needs; a pair one run separates and the other only leans against is the
     * weaker, commoner disagreement, and the page counts it too.
     */
    static List<String[]> leaningTheOtherWay(Report.Summary reference, Report.Summary other, String referenceName, String otherName) {
        List<String[]> leaning = new ArrayList<>();
        for (Order order : orders(reference, other)) {
            if (order.inReference() != 0 && order.inOther() == 0 && order.leanInOther() == -order.inReference()) {
                leaning.add(order.inReference() < 0 ? new String[] {order.first(), order.second(), referenceName}
                        : new String[] {order.second(), order.first(), referenceName});
            }
            if (order.inOther() != 0 && order.inReference() == 0 && order.leanInReference() == -order.inOther()) {
                leaning.add(order.inOther() < 0 ? new String[] {order.first(), order.second(), otherName}
                        : new String[] {order.second(), order.first(), otherName});
            }
        }
        return leaning;
    }

    /** -1 when the run's estimate of {@code a} over {@code b} is below 1, 1 when above, 0 at 1: where a level pair leans. */
    private static int lean(Statistics.Rounds rounds, String a, String b) {
        return (int) Math.signum(rounds.ratio(a, b).estimate() - 1);
    }

    private static List<Order> orders(Report.Summary reference, Report.Summary other) {
        Statistics.Rounds first = Ranking.rounds(reference);
        Statistics.Rounds second = Ranking.rounds(other);
        List<String> both = ranked(reference).stream().filter(ranked(other)::contains).sorted().toList();
        List<Order> orders = new ArrayList<>();
        for (int i = 0; i < both.size(); i++) {
            for (int j = i + 1; j < both.size(); j++) {
                String a = both.get(i);
                String b = both.get(j);
                orders.add(new Order(a, b, order(first, a, b), order(second, a, b), lean(first, a, b), lean(second, a, b)));
            }
        }
        return orders;
    }

    /** The row every x loop is taken over: its own ratio is 1 in every round. */
    private static Optional<ModuleSummary> reference(Report.Summary run) {
        return run.modules().stream().filter(row -> {
            Interval ratio = row.ratioToReferenceInterval();
            return ratio != null && ratio.low() == 1 && ratio.high() == 1 && row.tps() != null && row.cpuMicros() != null;
        }).findFirst();
    }

    private static List<ModuleSummary> twins(Report.Summary run) {
        return run.modules().stream().filter(row -> row.twinOf() != null).toList();
    }

    private static String aa(ModuleSummary twin, Function<ModuleSummary, Interval> field) {
        Interval interval = twin == null ? null : field.apply(twin);
        return interval == null ? "missing" : cell(RATIOS.get(1), interval);
    }

    private static String cell(Ratio ratio, Interval interval) {
        java.util.function.DoubleFunction<String> format = ratio.field().equals("percentOfCeiling") ? ReportView::share
                : ratio.field().equals(Ranking.FIGURE) ? ReportView::micros : Format::ratio;
        return "%s (%s-%s)".formatted(format.apply(interval.estimate()), format.apply(interval.low()), format.apply(interval.high()));
    }
}
