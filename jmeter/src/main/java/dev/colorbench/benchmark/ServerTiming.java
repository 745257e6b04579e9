package dev.colorbench.benchmark;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

import tools.jackson.databind.JsonNode;

/**
 * The modules' own measurement of {@code GET /colors}, beside JMeter's whole milliseconds: the
 * {@code http.server.requests} timer read from the actuator at the boundaries of each measured
 * run. The timer is cumulative, so the difference of two readings is exactly the requests served
 * between them, whatever came before (verification, warm-up, earlier runs).
 */
final class ServerTiming {

    /**
     * Seconds each closed-model measured group waits before it sends (the thread group's startup
     * delay): without it a throughput run would start the moment the warm-up (or, with one module,
     * the previous open-model run) ends, and no reading could fall between them.
     */
    static final int QUIET_SECONDS = 2;

    /** How late a reading may be taken and still fall inside the quiet gap it was planned for. */
    static final long LATE_TOLERANCE_MILLIS = 700;

    private ServerTiming() {
    }

    /** One reading of the timer: requests served so far and their summed time. */
    record Snapshot(long count, double totalSeconds) {

        /**
         * Reads {@code GET /actuator/metrics/http.server.requests?tag=...}: measurements COUNT and
         * TOTAL_TIME (seconds, the timer's base unit). Anything else is an error, not a zero.
         */
        static Snapshot parse(String actuatorJson) {
            JsonNode root = Json.MAPPER.readTree(actuatorJson);
            Double count = null;
            Double total = null;
            for (JsonNode measurement : root.path("measurements")) {
                JsonNode value = measurement.path("value");
                if (!value.isNumber()) {
                    continue;
                }
                switch (measurement.path("statistic").asString()) {
                    case "COUNT" -> count = value.asDouble();
                    case "TOTAL_TIME" -> total = value.asDouble();
                    default -> { }
                }
            }
            if (count == null || total == null) {
                throw new IllegalArgumentException("no COUNT and TOTAL_TIME in " + actuatorJson);
            }
            if (!"seconds".equals(root.path("baseUnit").asString("seconds"))) {
                throw new IllegalArgumentException("the timer's base unit is not seconds: " + root.path("baseUnit").asString());
            }
            return new Snapshot(Math.round(count), total);
        }
    }

    /** The readings around one measured run; {@code null} where a reading failed or came too late. */
    record Window(String module, String phase, int repetition, Snapshot before, Snapshot after) {

        /** Requests the module served during the run, or {@code null} if a reading is missing. */
        Long requests() {
            if (before == null || after == null) {
                return null;
            }
            return after.count() - before.count();
        }

        /** Mean server time per request in microseconds, or {@code null} when it cannot be known (never 0 by default). */
        Double meanMicros() {
            Long requests = requests();
            if (requests == null || requests <= 0) {
                return null;
            }
            return (after.totalSeconds() - before.totalSeconds()) / requests * 1e6;
        }
    }

    /**
     * The repetitions' mean server times in microseconds: median and range of those that were
     * measured, and each repetition in order ({@code null} where it is missing).
     */
    record MeanMicros(double median, double min, double max, List<Double> perRepetition, int measuredRepetitions) {

        /** {@code null} when no repetition has a value: missing, rather than a made-up 0. */
        static MeanMicros of(List<Double> perRepetition) {
            List<Double> measured = perRepetition.stream().filter(Objects::nonNull).toList();
            if (measured.isEmpty()) {
                return null;
            }
            Spread spread = Spread.of(measured);
            // List.copyOf refuses nulls, and a missing repetition must stay visible as one
            return new MeanMicros(spread.median(), spread.min(), spread.max(), Collections.unmodifiableList(new ArrayList<>(perRepetition)),
                    measured.size());
        }
    }

    /**
     * When to read a module's timer, in milliseconds after the test's start ({@code null}: at the
     * baseline taken before the load, because the module gets no request before this run).
     */
    record Boundary(PatternModule module, Phase phase, int repetition, boolean before, Long dueMillis) {
    }

    /**
     * The reading before and after each measured run, each planned in the middle of a quiet gap of
     * that module: before a closed-model run, in its startup delay ({@link #QUIET_SECONDS}); between
     * the closed-model and the open-model run, in the open model's slack; after the open-model run,
     * one second after its trailing pause ended, inside the next group's startup delay.
     */
    static List<Boundary> boundaries(List<ScheduledRun> schedule) {
        List<Boundary> boundaries = new ArrayList<>();
        for (int i = 0; i < schedule.size(); i++) {
            ScheduledRun run = schedule.get(i);
            if (!run.phase().measured()) {
                continue;
            }
            boolean firstOfModule = schedule.subList(0, i).stream().noneMatch(earlier -> earlier.module() == run.module());
            long beforeMillis = run.phase() == Phase.THROUGHPUT
                    ? run.startSecond() * 1000L - QUIET_SECONDS * 500L
                    : run.startSecond() * 1000L - ScheduledRun.OPEN_MODEL_SLACK_SECONDS * 500L;
            long afterMillis = run.phase() == Phase.THROUGHPUT
                    ? (run.startSecond() + run.seconds()) * 1000L + ScheduledRun.OPEN_MODEL_SLACK_SECONDS * 500L
                    : (run.startSecond() + run.seconds()) * 1000L + QUIET_SECONDS * 500L;
            boundaries.add(new Boundary(run.module(), run.phase(), run.repetition(), true, firstOfModule ? null : beforeMillis));
            boundaries.add(new Boundary(run.module(), run.phase(), run.repetition(), false, afterMillis));
        }
        return List.copyOf(boundaries);
    }
}
