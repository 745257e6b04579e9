package dev.colorbench.benchmark.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import dev.colorbench.benchmark.Format;

/**
 * Two full runs of one commit side by side: every headline ratio of each row in the reference run and in its repeat, each
 * with its interval, and how far the repeat moved from the reference. Written from the two summary.json files alone, so
 * that docs/results/repeat/comparison.md can be checked against them (docs/results.md#the-same-code-twice).
 */
final class Reproducibility {

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
        Map<String, Object> first = (Map<String, Object>) reference.get("environment");
        Map<String, Object> second = (Map<String, Object>) repeat.get("environment");
        List<Pair> pairs = pairs(reference, repeat);
        StringBuilder page = new StringBuilder();
        page.append("# The same commit twice: the reference run and its repeat\n\n");
        page.append("Written by `./mvnw -Ppublish -pl benchmark -am verify -Dpublish.as=repeat` from docs/results/summary.json (%s) and docs/results/repeat/summary.json (%s), both of commit `%s`; the rounds' orders from seed %s and seed %s.\n\n"
                .formatted(first.get("date"), second.get("date"), first.get("gitCommit"), first.getOrDefault("seed", "fixed"),
                        second.getOrDefault("seed", "fixed")));
        page.append("| row | ratio | reference (95 % interval) | repeat (95 % interval) | moved |\n| --- | --- | --: | --: | --: |\n");
        for (Pair pair : pairs) {
            page.append("| %s | %s | %s | %s | %s %% |\n".formatted(pair.module(), pair.ratio().name(), cell(pair.ratio(), pair.reference()),
                    cell(pair.ratio(), pair.repeat()), String.format(Locale.ROOT, "%.1f", pair.movedPercent())));
        }
        for (Map<String, Object> twin : twins(reference)) {
            Map<String, Object> again = twins(repeat).stream().filter(other -> other.get("module").equals(twin.get("module"))).findFirst().orElse(null);
            page.append("\nThe A/A pair, %s against %s: TPS %s, CPU per request %s in the reference run; %s and %s in the repeat.\n".formatted(
                    twin.get("module"), twin.get("twinOf"), aa(twin, "twinTpsRatio"), aa(twin, "twinCpuRatio"), aa(again, "twinTpsRatio"),
                    aa(again, "twinCpuRatio")));
        }
        reference(reference).ifPresent(row -> reference(repeat).ifPresent(again -> page.append(
                "\nThe row every x loop is over, %s: %s TPS at %s µs a request in the reference run; %s TPS at %s µs in the repeat.\n".formatted(
                        row.get("module"), Format.grouped(estimate(field(row, "tps"))), ReportView.micros(estimate(field(row, "cpuMicros"))),
                        Format.grouped(estimate(field(again, "tps"))), ReportView.micros(estimate(field(again, "cpuMicros")))))));
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
        return page.toString();
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
