package dev.colorbench.benchmark.report;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.colorbench.benchmark.results.FloorReading;
import dev.colorbench.testkit.statistics.Interval;
import dev.colorbench.testkit.statistics.Statistics;

/**
 * The run's one floor, {@code floor} in summary.json: the least CPU a read of the colors from Redis can cost. In each round it
 * is the ceiling's CPU per request plus the lesser Redis CPU of two commands the harness sends itself: one GET of the whole
 * palette stored as one value, and one MGET of the palette's keys. So it is the same whatever rows the run has
 * (docs/measuring.md#the-floor). Each figure is the geometric mean of its forks' rounds with its 95 % interval, from the run's
 * one statistics core ({@link Statistics}).
 *
 * @param micros the floor, in µs of CPU a request; null without the ceiling's row or without a measured round
 * @param ceiling the ceiling's row, null when the run has none
 * @param ceilingMicros the ceiling's CPU per request, module and store
 * @param getMicros Redis's CPU per GET of the whole palette
 * @param mgetMicros Redis's CPU per MGET of the palette's keys
 * @param rounds each round's figures
 */
record Floor(Interval micros, String ceiling, Interval ceilingMicros, Interval getMicros, Interval mgetMicros, List<Round> rounds) {

    /**
     * One round: the two commands as the harness measured them, and the floor they give with the ceiling's CPU of that round.
     *
     * @param gets how many GETs Redis's CPU was read around
     * @param mgets how many MGETs
     * @param micros the ceiling's CPU plus the lesser of the two; null where either part is missing
     */
    record Round(int round, Double ceilingMicros, Double getMicros, long gets, Double mgetMicros, long mgets, Double micros) {
    }

    Floor {
        rounds = List.copyOf(rounds);
    }

    /**
     * The floor of a run, round by round: the ceiling's CPU per request in that round plus the lesser Redis CPU, in that round,
     * of the two commands the harness measured. No row's Redis work goes into it, so it is the same whatever rows run, and
     * {@code x floor} orders the rows as their cost does. Without the ceiling's row it has no figure, only the harness's.
     *
     * @param ceiling the ceiling's row, or null
     * @param ceilingCpu the ceiling's CPU per request by round; empty without it
     * @param redis what the harness measured of Redis, by round
     * @param cpu every row's CPU per request, whose pooled spread gives the floor's intervals
     */
    static Floor of(String ceiling, Map<Integer, Double> ceilingCpu, Map<Integer, FloorReading> redis, Statistics.Rounds cpu) {
        List<Round> rounds = new java.util.ArrayList<>();
        java.util.SortedSet<Integer> all = new java.util.TreeSet<>(redis.keySet());
        all.addAll(ceilingCpu.keySet());
        for (int round : all) {
            FloorReading reading = redis.get(round);
            Double ceilingMicros = ceilingCpu.get(round);
            Double least = reading == null ? null : reading.leastMicros();
            rounds.add(new Round(round, ceilingMicros, reading == null ? null : reading.get().microsPerCommand(),
                    reading == null ? 0 : reading.get().commands(), reading == null ? null : reading.mget().microsPerCommand(),
                    reading == null ? 0 : reading.mget().commands(), ceilingMicros == null || least == null ? null : ceilingMicros + least));
        }
        Floor floor = new Floor(null, ceiling, ceiling == null ? null : cpu.figure(ceiling), null, null, rounds);
        return new Floor(cpu.figure(floor.byRound()), ceiling, floor.ceilingMicros(), cpu.figure(floor.figure(Round::getMicros)),
                cpu.figure(floor.figure(Round::mgetMicros)), rounds);
    }

    /** The floor of each round that has one: what {@code x floor} divides each row's CPU by, round by round. */
    Map<Integer, Double> byRound() {
        return figure(Round::micros);
    }

    private Map<Integer, Double> figure(java.util.function.Function<Round, Double> figure) {
        Map<Integer, Double> byRound = new TreeMap<>();
        rounds.forEach(round -> {
            Double value = figure.apply(round);
            if (value != null) {
                byRound.put(round.round(), value);
            }
        });
        return byRound;
    }

    /** In how many rounds the GET cost Redis less than the MGET, and the MGET less than the GET: what the floor held where. */
    String lesser() {
        long gets = rounds.stream().filter(round -> round.getMicros() != null && (round.mgetMicros() == null || round.getMicros() <= round.mgetMicros()))
                .count();
        long mgets = rounds.stream().filter(round -> round.mgetMicros() != null && (round.getMicros() == null || round.mgetMicros() < round.getMicros()))
                .count();
        long all = gets + mgets;
        if (all == 1) {
            return gets == 1 ? "the GET in the run's one round" : "the MGET in the run's one round";
        }
        if (mgets == 0) {
            return "the GET in %d of %d rounds".formatted(gets, all);
        }
        return gets == 0 ? "the MGET in %d of %d rounds".formatted(mgets, all) : "the GET in %d of %d rounds, the MGET in %d".formatted(gets, all, mgets);
    }

    /**
     * The report's sentence: the floor with its interval, and what it is made of, or why the run has none; null when the harness
     * measured no round (a report written from rows alone).
     */
    String sentence() {
        if (rounds.stream().allMatch(round -> round.getMicros() == null && round.mgetMicros() == null)) {
            return null;
        }
        String redis = "one GET of the whole palette, %s µs, or one MGET of its keys, %s µs".formatted(format(getMicros), format(mgetMicros));
        if (micros == null) {
            return ("The floor: none, without the ceiling's row. Redis's CPU, measured by the harness in each round: %s "
                    + "(docs/measuring.md#the-floor).").formatted(redis);
        }
        // one round gives no interval: the figure alone, without the words that would promise one
        return ("The floor: %s µs of CPU a request%s: the ceiling's %s plus the lesser Redis CPU of two commands, measured by "
                + "the harness in each round: %s. The lesser was %s (docs/measuring.md#the-floor).").formatted(format(micros),
                micros.rounds() < 2 ? "" : " (95 % interval)", format(ceilingMicros), redis, lesser());
    }

    /** {@code 99 (91-104)}: the estimate and its 95 % interval, as every µs figure of the report is written. */
    private static String format(Interval interval) {
        return ReportView.interval(interval, ReportView::micros, "missing");
    }
}
