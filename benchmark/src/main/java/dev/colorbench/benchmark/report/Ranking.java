package dev.colorbench.benchmark.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import java.util.LinkedHashMap;
import java.util.TreeMap;
import java.util.function.IntUnaryOperator;

import dev.colorbench.benchmark.plan.Phase;
import dev.colorbench.testkit.statistics.Interval;
import dev.colorbench.testkit.statistics.Statistics;

/**
 * The one ranking of the rows, used by every page: the README's verdict, report.md, report.html and its chart
 * ({@code PublishedFiguresTest} fails when a page ranks a row otherwise, or by another figure). Rows rank by the CPU one
 * request costs the module and its store, counted from outside the processes: what a user's servers pay, whatever
 * drives the load (docs/measuring.md#the-ranking). Cheapest first. Two rows are apart only where the interval of their
 * ratio, taken within each round where the machine's drift cancels, excludes 1 ({@link Statistics.Rounds#apart}); otherwise
 * they are level. A row's rank is one more than the cheaper rows it is apart from, so two level rows never rank apart by
 * each other. The A/A twin is left out of the ranking (it is the run's noise, not a pattern), but its rounds count in the
 * pooled spread every interval is drawn from.
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

    /** The places of {@code rows}, cheapest first, apart or level as {@code rounds} (every row of the run, by round) has them. */
    public static List<Place> of(List<Entry> rows, Statistics.Rounds rounds) {
        List<Entry> sorted = rows.stream().sorted(Comparator.comparingDouble(Entry::estimate).thenComparing(Entry::id)).toList();
        List<Place> places = new ArrayList<>();
        for (int i = 0; i < sorted.size(); i++) {
            Entry row = sorted.get(i);
            long below = sorted.subList(0, i).stream().filter(other -> other.estimate() < row.estimate() && rounds.apart(other.id(), row.id())).count();
            Entry before = i == 0 ? null : sorted.get(i - 1);
            boolean level = before != null && !rounds.apart(before.id(), row.id());
            places.add(new Place(row.id(), (int) below + 1, level ? before.id() : null));
        }
        return places;
    }

    /** The places of the report's rows: every row but the A/A twin, with its CPU per request measured. */
    static List<Place> ofSummaries(List<ModuleSummary> rows, IntUnaryOperator forkOf) {
        Statistics.Rounds rounds = rounds(rows, forkOf);
        return of(rows.stream().filter(row -> row.twinOf() == null && row.cpuMicros() != null)
                .map(row -> entry(row.module(), row.cpuMicros())).toList(), rounds);
    }

    /**
     * The places of a run's rows as summary.json holds it, read back through the records that wrote it: the same rule on the
     * same figure, for a page drawn from the file ({@link Headline}) and for the tests that check the pages against it.
     */
    static List<Place> of(Report.Summary run) {
        return ofSummaries(run.modules(), forkOf(run.environment()));
    }

    /**
     * Every row's CPU per request by round, of a run as summary.json holds it, in the forks its {@code environment} names (one
     * where it names none): what the ranking compares rows by.
     */
    static Statistics.Rounds rounds(Report.Summary run) {
        return rounds(run.modules(), forkOf(run.environment()));
    }

    private static IntUnaryOperator forkOf(Environment environment) {
        int forks = environment == null || environment.forks() == null ? 1 : environment.forks();
        int repetitions = environment == null ? 1 : Math.max(1, environment.repetitions());
        return Statistics.blocks(forks, repetitions);
    }

    /** Each row's closed-model rounds' CPU per request, module and store together. */
    private static Statistics.Rounds rounds(List<ModuleSummary> rows, IntUnaryOperator forkOf) {
        Map<String, Map<Integer, Double>> byRow = new LinkedHashMap<>();
        for (ModuleSummary row : rows) {
            Map<Integer, Double> byRound = new TreeMap<>();
            for (ModuleSummary.Run run : row.runs() == null ? List.<ModuleSummary.Run>of() : row.runs()) {
                if (Phase.THROUGHPUT.label().equals(run.phase()) && run.moduleCpuMicros() != null && run.storeCpuMicros() != null) {
                    byRound.put(run.repetition(), run.moduleCpuMicros() + run.storeCpuMicros());
                }
            }
            byRow.put(row.module(), byRound);
        }
        return Statistics.rounds(byRow, forkOf);
    }

    private static Entry entry(String id, Interval interval) {
        return new Entry(id, interval.estimate(), interval.low(), interval.high());
    }
}
