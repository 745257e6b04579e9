package dev.colorbench.benchmark.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.results.Statistics;

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
        REPEAT("repeat", "The same commit twice: the reference run and its repeat", "the repeat"),
        HALVED("halved", "The reference run and a run with the CPU halved", "the run with the CPU halved");

        final String folder;

        final String title;

        final String name;

        Kind(String folder, String title, String name) {
            this.folder = folder;
            this.title = title;
            this.name = name;
        }
    }

    /** A headline ratio: its summary.json field, the field of its interval, and its column's name. */
    record Ratio(String field, String interval, String name) {
    }

    static final List<Ratio> RATIOS = List.of(new Ratio("cpuMicros", Ranking.FIGURE, "CPU µs / request"),
            new Ratio("ratioToReference", "ratioToReferenceInterval", "x loop"),
            new Ratio("floorRatio", "floorRatioInterval", "x floor"), new Ratio("percentOfCeiling", "percentOfCeilingInterval", "% of ceiling"));

    private Reproducibility() {
    }

    /** One row's ratio in both runs; {@code movedPercent} is how far the repeat's estimate is from the reference's. */
    record Pair(String module, Ratio ratio, Map<String, Object> reference, Map<String, Object> repeat) {

        double movedPercent() {
            return Math.abs(estimate(repeat) / estimate(reference) - 1) * 100;
        }

        boolean intervalsOverlap() {
            return low(reference) <= high(repeat) && low(repeat) <= high(reference);
        }
    }

    /** Every headline figure of every row that both runs measured, in the reference run's order; the ceiling's own 100 % left out. */
    @SuppressWarnings("unchecked")
    static List<Pair> pairs(Map<String, Object> reference, Map<String, Object> repeat) {
        List<Pair> pairs = new ArrayList<>();
        for (Map<String, Object> row : (List<Map<String, Object>>) reference.get("modules")) {
            Optional<Map<String, Object>> again = ((List<Map<String, Object>>) repeat.get("modules")).stream()
                    .filter(other -> other.get("module").equals(row.get("module"))).findFirst();
            for (Ratio ratio : RATIOS) {
                Map<String, Object> first = (Map<String, Object>) row.get(ratio.interval());
                Map<String, Object> second = again.map(other -> (Map<String, Object>) other.get(ratio.interval())).orElse(null);
                if (first != null && second != null && !(estimate(first) == 100 && high(first) == 100 && ratio.field().equals("percentOfCeiling"))
                        && !(estimate(first) == 1 && low(first) == 1 && high(first) == 1)) {
                    pairs.add(new Pair(String.valueOf(row.get("module")), ratio, first, second));
                }
            }
        }
        return pairs;
    }

    /** The comparison page: one table row per row and ratio, then the largest move and how many moved more than 5 %. */
    @SuppressWarnings("unchecked")
    static String markdown(Map<String, Object> reference, Map<String, Object> repeat) {
        return markdown(reference, repeat, Kind.REPEAT);
    }

    /** The comparison page of the reference run and {@code other}, a run of the given kind. */
    @SuppressWarnings("unchecked")
    static String markdown(Map<String, Object> reference, Map<String, Object> other, Kind kind) {
        Map<String, Object> first = (Map<String, Object>) reference.get("environment");
        Map<String, Object> second = (Map<String, Object>) other.get("environment");
        List<Pair> pairs = pairs(reference, other);
        StringBuilder page = new StringBuilder();
        page.append("# ").append(kind.title).append("\n\n");
        boolean oneCommit = String.valueOf(first.get("gitCommit")).equals(String.valueOf(second.get("gitCommit")));
        page.append("Written by `./mvnw -Ppublish -pl benchmark -am verify -Dpublish.as=%s` from docs/results/summary.json (%s) and docs/results/%s/summary.json (%s), %s; the rounds' orders from seed %s and seed %s.%s\n\n"
                .formatted(kind.folder, first.get("date"), kind.folder, second.get("date"),
                        oneCommit ? "both of commit `%s`".formatted(first.get("gitCommit"))
                                : "of commits `%s` and `%s`".formatted(first.get("gitCommit"), second.get("gitCommit")),
                        first.getOrDefault("seed", "fixed"), second.getOrDefault("seed", "fixed"),
                        second.get("cpuQuota") instanceof Number quota ? " The second ran on %s cores under a CPU quota of %s of them (a cgroup's)."
                                .formatted(second.get("cores"), Format.number(quota.doubleValue())) : ""));
        page.append("| row | ratio | reference (95 %% interval) | %s (95 %% interval) | moved |\n| --- | --- | --: | --: | --: |\n".formatted(kind.folder));
        for (Pair pair : pairs) {
            page.append("| %s | %s | %s | %s | %s %% |\n".formatted(pair.module(), pair.ratio().name(), cell(pair.ratio(), pair.reference()),
                    cell(pair.ratio(), pair.repeat()), String.format(Locale.ROOT, "%.1f", pair.movedPercent())));
        }
        for (Map<String, Object> twin : twins(reference)) {
            Map<String, Object> again = twins(other).stream().filter(row -> row.get("module").equals(twin.get("module"))).findFirst().orElse(null);
            page.append("\nThe A/A pair, %s against %s: TPS %s, CPU per request %s in the reference run; %s and %s in %s.\n".formatted(
                    twin.get("module"), twin.get("twinOf"), aa(twin, "twinTpsRatio"), aa(twin, "twinCpuRatio"), aa(again, "twinTpsRatio"),
                    aa(again, "twinCpuRatio"), kind.name));
        }
        reference(reference).ifPresent(row -> reference(other).ifPresent(again -> page.append(
                "\nThe row every x loop is over, %s: %s TPS at %s µs a request in the reference run; %s TPS at %s µs in %s.\n".formatted(
                        row.get("module"), Format.grouped(estimate(field(row, "tps"))), ReportView.micros(estimate(field(row, "cpuMicros"))),
                        Format.grouped(estimate(field(again, "tps"))), ReportView.micros(estimate(field(again, "cpuMicros"))), kind.name))));
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
        page.append("\nRows settled in their warm-up: %s in the reference run, %s in %s.\n".formatted(settled(first), settled(second), kind.name));
        List<String[]> reversed = reversed(reference, other);
        long separated = apartInBoth(reference, other);
        page.append("\nThe ranking (%s): of %d pair%s of rows ranked apart in both runs, %s.\n".formatted(Ranking.COLUMN.replace(" (95 % interval)", ""),
                separated, separated == 1 ? "" : "s", reversed.isEmpty() ? "none is in the opposite order"
                        : reversed.size() + (reversed.size() == 1 ? " is" : " are") + " in the opposite order: "
                                + reversed.stream().map(pair -> pair[0] + " before " + pair[1] + " in the reference run")
                                        .collect(java.util.stream.Collectors.joining(", "))));
        return page.toString();
    }

    /** {@code 17 of 18}: how many of a run's rows settled in their warm-up, or {@code not recorded}. */
    @SuppressWarnings("unchecked")
    private static String settled(Map<String, Object> environment) {
        return environment.get("rowsSettled") instanceof Number rows && environment.get("modules") instanceof List<?> modules
                ? rows.intValue() + " of " + modules.size() : "not recorded";
    }

    /** The rows a run ranks: every row with its CPU per request but the A/A twin. */
    @SuppressWarnings("unchecked")
    private static List<String> ranked(Map<String, Object> run) {
        return ((List<Map<String, Object>>) run.get("modules")).stream().filter(row -> row.get("twinOf") == null && row.get(Ranking.FIGURE) instanceof Map)
                .map(row -> (String) row.get("module")).toList();
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

    /** Two rows both runs rank, and in each where the first's interval lies against the second's: -1 below, 0 level, 1 above. */
    private record Order(String first, String second, int inReference, int inOther) {
    }

    /** How many pairs of rows both runs rank apart (each run's intervals separate them). */
    private static long apartInBoth(Map<String, Object> reference, Map<String, Object> other) {
        return orders(reference, other).stream().filter(order -> order.inReference() != 0 && order.inOther() != 0).count();
    }

    /** The pairs of rows both runs rank apart, in opposite orders: {@code {first in the reference run, second}}. */
    static List<String[]> reversed(Map<String, Object> reference, Map<String, Object> other) {
        return orders(reference, other).stream().filter(order -> order.inReference() * order.inOther() < 0)
                .map(order -> order.inReference() < 0 ? new String[] {order.first(), order.second()} : new String[] {order.second(), order.first()}).toList();
    }

    private static List<Order> orders(Map<String, Object> reference, Map<String, Object> other) {
        Statistics.Rounds first = Ranking.rounds(reference);
        Statistics.Rounds second = Ranking.rounds(other);
        List<String> both = ranked(reference).stream().filter(ranked(other)::contains).sorted().toList();
        List<Order> orders = new ArrayList<>();
        for (int i = 0; i < both.size(); i++) {
            for (int j = i + 1; j < both.size(); j++) {
                String a = both.get(i);
                String b = both.get(j);
                orders.add(new Order(a, b, order(first, a, b), order(second, a, b)));
            }
        }
        return orders;
    }

    /** The row every x loop is taken over: its own ratio is 1 in every round. */
    @SuppressWarnings("unchecked")
    private static Optional<Map<String, Object>> reference(Map<String, Object> run) {
        return ((List<Map<String, Object>>) run.get("modules")).stream().filter(row -> {
            Map<String, Object> ratio = field(row, "ratioToReferenceInterval");
            return ratio != null && low(ratio) == 1 && high(ratio) == 1 && field(row, "tps") != null && field(row, "cpuMicros") != null;
        }).findFirst();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> field(Map<String, Object> row, String name) {
        return (Map<String, Object>) row.get(name);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> twins(Map<String, Object> run) {
        return ((List<Map<String, Object>>) run.get("modules")).stream().filter(row -> row.get("twinOf") != null).toList();
    }

    @SuppressWarnings("unchecked")
    private static String aa(Map<String, Object> twin, String field) {
        Map<String, Object> interval = twin == null ? null : (Map<String, Object>) twin.get(field);
        return interval == null ? "missing" : cell(RATIOS.get(1), interval);
    }

    private static String cell(Ratio ratio, Map<String, Object> interval) {
        java.util.function.DoubleFunction<String> format = ratio.field().equals("percentOfCeiling") ? ReportView::share
                : ratio.field().equals("cpuMicros") ? ReportView::micros : Format::ratio;
        return "%s (%s-%s)".formatted(format.apply(estimate(interval)), format.apply(low(interval)), format.apply(high(interval)));
    }

    static double estimate(Map<String, Object> interval) {
        return ((Number) interval.get("estimate")).doubleValue();
    }

    static double low(Map<String, Object> interval) {
        return ((Number) interval.get("low")).doubleValue();
    }

    static double high(Map<String, Object> interval) {
        return ((Number) interval.get("high")).doubleValue();
    }
}
