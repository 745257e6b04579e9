package dev.colorbench.benchmark.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.RunDirectory;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.report.Section;
import dev.colorbench.benchmark.results.JMeterResults;
import dev.colorbench.benchmark.run.Condition;
import dev.colorbench.benchmark.run.Lab;
import dev.colorbench.testkit.RedisRoundTrip;

/**
 * {@code distance}: the Redis patterns among the scenario's rows with Redis further away. The modules reach Redis through a
 * {@link dev.colorbench.testkit.DelayProxy} that adds 0, 0.25, 1 and 5 ms to every round trip
 * (quick: 0 and 1 ms), only on that path; the load generator's path to the modules is untouched.
 * The same module JVMs, warmed once, are measured at each distance, and the round trip the path
 * really adds is measured (PINGs through it) and shown beside the one asked for; what the proxy
 * adds beyond what it is told is measured and taken off ({@code DataStores.calibrateRedisRoundTrip}).
 *
 * <p>What to expect: a client thread that waits for each answer waits at least one path round trip
 * per round trip its request makes, so no row can do more than {@code threads x 1000 / (round
 * trips x RTT ms)} requests per second: the loop and the repository fall as 1 / (148 x RTT) once the
 * network, not the CPU, is what they wait for, while a one-round-trip pattern stays CPU-bound until
 * the RTT is close to its service time. That bound is shown beside each measured figure.
 */
final class Distance implements Scenario {

    /** Off by more than this share of the asked round trip, a distance is flagged. */
    private static final double TOLERANCE = 0.2;

    @Override
    public String name() {
        return "distance";
    }

    @Override
    public Section run(ScenarioContext context) {
        List<Double> asked = context.settings().quick() ? List.of(0.0, 1.0) : List.of(0.0, 0.25, 1.0, 5.0);
        List<Target> targets = context.redisPatterns();
        BenchmarkSettings settings = context.settings().forScenario(context.settings().threads());
        RunDirectory directory = context.directory().sub(name());
        List<Step> steps = new ArrayList<>();
        Map<String, Double> roundTrips = new LinkedHashMap<>();
        try (Lab lab = context.measurement().open(Condition.plain(name(), settings, targets).withRedisRoundTrip(Duration.ZERO), directory)) {
            targets.forEach(target -> roundTrips.put(target.id(), lab.verification().of(target.id()).roundTrips()));
            Map<Double, List<JMeterResults>> runs = new LinkedHashMap<>();
            Map<Double, RedisRoundTrip.Measured> measured = new LinkedHashMap<>();
            for (double millis : Scenarios.thereAndBack(asked, context.settings().quick())) {
                RedisRoundTrip.Measured calibrated = lab.stores().calibrateRedisRoundTrip(millis);
                measured.putIfAbsent(millis, calibrated);
                List<JMeterResults> atMillis = runs.computeIfAbsent(millis, key -> new ArrayList<>());
                atMillis.add(lab.run(settings, directory.sub("rtt-" + label(millis) + (atMillis.isEmpty() ? "" : "-back")), false));
            }
            for (double millis : asked) {
                Map<String, RowFigures> rows = new LinkedHashMap<>();
                targets.forEach(target -> rows.put(target.id(), RowFigures.of(target.id(), runs.get(millis), settings)));
                steps.add(new Step(millis, measured.get(millis), rows));
            }
        }
        return section(settings, targets, steps, roundTrips);
    }

    /** One distance: asked, as measured, and every row's figures there. */
    record Step(double askedMillis, RedisRoundTrip.Measured measured, Map<String, RowFigures> rows) {

        boolean offTarget() {
            return askedMillis > 0 && Math.abs(measured.addedMillis() - askedMillis) > TOLERANCE * askedMillis;
        }

        String heading() {
            return "+%s ms (measured +%.3f%s)".formatted(Format.asked(askedMillis), measured.addedMillis(), offTarget() ? ", OFF by > 20 %" : "");
        }
    }

    /** The most requests per second {@code threads} waiting threads can make over a path of {@code pathMillis}; null without round trips. */
    static Double networkBound(int threads, Double roundTrips, double pathMillis) {
        return roundTrips == null || roundTrips <= 0 ? null : threads * 1000.0 / (roundTrips * pathMillis);
    }

    private Section section(BenchmarkSettings settings, List<Target> targets, List<Step> steps, Map<String, Double> roundTrips) {
        List<String> header = new ArrayList<>(List.of("module", "round trips / request"));
        steps.forEach(step -> header.add("TPS at " + step.heading() + ", network bound"));
        List<List<String>> rows = new ArrayList<>();
        Map<String, List<Charts.Point>> tpsLines = new LinkedHashMap<>();
        Map<String, List<Charts.Point>> microsLines = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        Step first = steps.get(0);
        for (Target target : targets) {
            String id = target.id();
            Double trips = roundTrips.get(id);
            List<String> row = new ArrayList<>(List.of(id, trips == null ? "n/a" : Format.number(trips)));
            for (Step step : steps) {
                RowFigures figures = step.rows().get(id);
                Double bound = networkBound(settings.threads(), trips, step.measured().pathMillis());
                row.add(RowFigures.spread(figures.tps()) + (bound == null ? "" : ", bound " + Format.grouped(bound)) + figures.failedIfAny("; "));
                tpsLines.computeIfAbsent(id, key -> new ArrayList<>()).add(new Charts.Point(step.measured().pathMillis(), figures.tpsMedian()));
                microsLines.computeIfAbsent(id, key -> new ArrayList<>()).add(new Charts.Point(step.measured().pathMillis(),
                        figures.serverMicros() == null ? null : figures.serverMicros().median()));
                problems.addAll(figures.faults(name(), step.heading()));
            }
            rows.add(row);
        }
        List<String> notes = new ArrayList<>();
        notes.add(("Each cell: closed-model TPS with %d client threads, median of %d repetition(s) (range), and the network bound: "
                + "threads x 1000 / (round trips x path RTT in ms), the most threads that wait for every answer can do. A row close to its "
                + "bound waits on the network; a row far below it is busy with CPU. The path RTT is measured with PINGs through the same "
                + "proxy the modules use: %s.").formatted(settings.threads(),
                        settings.repetitions(), steps.stream().map(step -> "%.3f ms at +%s".formatted(step.measured().pathMillis(),
                                Format.asked(step.askedMillis()))).toList()));
        referenceReachingTheSourcePost(settings, targets, roundTrips, first.measured().directMillis()).ifPresent(notes::add);
        if (steps.stream().anyMatch(Step::offTarget)) {
            notes.add("A distance marked OFF measured more than 20 % away from what was asked: read its column with care.");
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("threads", settings.threads());
        data.put("steps", steps.stream().map(step -> Map.of("askedMillis", step.askedMillis(), "addedMillis", step.measured().addedMillis(),
                "pathMillis", step.measured().pathMillis(), "offTarget", step.offTarget(), "rows", step.rows())).toList());
        data.put("roundTripsPerRequest", roundTrips);
        return new Section(name(), "Distance to Redis",
                "Each Redis pattern among the rows with Redis further away: a path that adds the asked round trip between the modules and Redis, "
                        + "nothing else changed.",
                header, rows,
                List.of(Charts.lines("distance-tps", "Throughput against the round trip to Redis (log-log)", tpsLines,
                                "round trip to Redis on the modules' path, ms", true, "TPS", true),
                        Charts.lines("distance-micros", "Time per request in the module against the round trip to Redis (log-log)", microsLines,
                                "round trip to Redis on the modules' path, ms", true, "µs per request (module-side)", true)),
                notes, data, problems);
    }

    /**
     * The round trip at which the reference row's network bound falls to the source post's figure for its pattern: the row
     * is {@code benchmark.reference} (the loop by default), the figure its pom's {@code colorbench.sourcePostTps}. Empty when
     * the reference is not among the rows or its pom gives no figure.
     */
    static Optional<String> referenceReachingTheSourcePost(BenchmarkSettings settings, List<Target> targets, Map<String, Double> roundTrips,
            double directMillis) {
        Target reference = targets.stream().filter(target -> target.id().equals(settings.reference())).findFirst().orElse(null);
        Integer sourcePostTps = reference == null ? null : reference.module().sourcePostTps();
        Double trips = reference == null ? null : roundTrips.get(reference.id());
        if (sourcePostTps == null || trips == null || trips == 0) {
            return Optional.empty();
        }
        double pathMillis = settings.threads() * 1000.0 / (trips * sourcePostTps);
        return Optional.of(("With %d threads, the network bound of the reference row, %s, falls to the source post's %d TPS for its pattern "
                + "(with Redis on another host) at a round trip of %.2f ms to Redis: about what a Redis on another host of the same network "
                + "costs, where this loopback costs %.3f ms.").formatted(settings.threads(), reference.id(), sourcePostTps, pathMillis,
                        directMillis));
    }

    private static String label(double millis) {
        return String.format(Locale.ROOT, "%sms", Format.asked(millis)).replace('.', '_');
    }
}
