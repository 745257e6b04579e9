package dev.colorbench.benchmark.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.colorbench.benchmark.results.Interval;

/**
 * The one ranking of the rows, used by every page: the README's verdict, report.md, report.html and its chart
 * ({@code PublishedFiguresTest} fails when a page ranks a row otherwise, or by another figure). Rows rank by the CPU one
 * request costs the module and its store, counted from outside the processes: what a user's servers pay, whatever
 * drives the load (docs/measuring.md#the-ranking). Cheapest first. A row's rank is one more than the rows whose whole
 * interval lies below its own, so two rows whose intervals overlap never rank apart by each other: they are level.
 * The A/A twin is left out: it is the run's noise, not a pattern.
 */
public final class Ranking {

    /** The field of summary.json the ranking reads: each row's CPU per request, module and store, with its interval. */
    public static final String FIGURE = "cpuMicros";

    /** The header of the column that holds it, on every page that ranks. */
    public static final String COLUMN = "CPU µs / request (95 % interval)";

    /** What a row brings to the ranking: its name and its figure's interval. */
    public record Entry(String id, double estimate, double low, double high) {
    }

    /** A row's place: its rank, and the row ranked just before it when the two are level ({@code null} otherwise). */
    public record Place(String id, int rank, String levelWith) {
    }

    private Ranking() {
    }

    /** The places of {@code rows}, cheapest first. */
    public static List<Place> of(List<Entry> rows) {
        List<Entry> sorted = rows.stream().sorted(Comparator.comparingDouble(Entry::estimate).thenComparing(Entry::id)).toList();
        List<Place> places = new ArrayList<>();
        for (int i = 0; i < sorted.size(); i++) {
            Entry row = sorted.get(i);
            long below = sorted.stream().filter(other -> other.high() < row.low()).count();
            Entry before = i == 0 ? null : sorted.get(i - 1);
            boolean level = before != null && before.low() <= row.high() && row.low() <= before.high();
            places.add(new Place(row.id(), (int) below + 1, level ? before.id() : null));
        }
        return places;
    }

    /** The places of the report's rows: every row but the A/A twin, with its CPU per request measured. */
    static List<Place> ofSummaries(List<ModuleSummary> rows) {
        return of(rows.stream().filter(row -> row.twinOf() == null && row.cpuMicros() != null)
                .map(row -> entry(row.module(), row.cpuMicros())).toList());
    }

    /**
     * The places of summary.json's rows ({@code modules}, as read into maps): the same rule on the same figure, for a page
     * drawn from the file ({@link Headline}) and for the tests that check the pages against it.
     */
    @SuppressWarnings("unchecked")
    public static List<Place> ofJson(List<Map<String, Object>> modules) {
        return of(modules.stream().filter(row -> row.get("twinOf") == null && row.get(FIGURE) instanceof Map).map(row -> {
            Map<String, Object> interval = (Map<String, Object>) row.get(FIGURE);
            return new Entry((String) row.get("module"), number(interval.get("estimate")), number(interval.get("low")), number(interval.get("high")));
        }).toList());
    }

    private static Entry entry(String id, Interval interval) {
        return new Entry(id, interval.estimate(), interval.low(), interval.high());
    }

    private static double number(Object value) {
        return ((Number) Objects.requireNonNull(value)).doubleValue();
    }
}
