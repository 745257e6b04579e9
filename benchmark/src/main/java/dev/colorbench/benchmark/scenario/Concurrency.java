package dev.colorbench.benchmark.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.RunDirectory;
import dev.colorbench.benchmark.modules.Role;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.plan.Phase;
import dev.colorbench.benchmark.plan.RunKey;
import dev.colorbench.benchmark.plan.Schedule;
import dev.colorbench.benchmark.report.Fleet;
import dev.colorbench.benchmark.report.Section;
import dev.colorbench.benchmark.results.JMeterResults;
import dev.colorbench.benchmark.results.RunStatistics;
import dev.colorbench.benchmark.results.Sample;
import dev.colorbench.benchmark.results.Spread;
import dev.colorbench.benchmark.run.Condition;
import dev.colorbench.benchmark.run.Lab;

/**
 * {@code concurrency}: each of the scenario's rows under 1, 10, 100 and 1,000 concurrent clients (closed model;
 * quick: 1 and 10), then an overload step (quick: the first row but the ceiling alone): the open model offering each module but the ceiling half again what
 * it served at its best, whether or not earlier requests have come back. The steps show where
 * throughput stops growing and what latency pays for it; the overload step shows what breaks first,
 * read from why requests failed: a 503 from the module (its Redis connection pool or command
 * queue was full), a timeout (a queue of waiting requests grew past JMeter's 10 s), or a
 * connection the server refused or reset. Failed requests are what this scenario measures, at every
 * step: each cell shows their share and why; only a wrong answer (or a row without samples) fails the run.
 * Each row also checks the fleet model (docs/fleet.md), which takes one request's CPU at one client count for any
 * load: requests a second per application core and per Redis core at each step, against the model's step
 * ({@link ModelCheck}).
 */
final class Concurrency implements Scenario {

    /** The overload step offers each module this many times the most it served. */
    private static final double OVERLOAD = 1.5;

    /** The client count of the model's step where the headline's is not a step: the headline's default. */
    private static final int MODEL_CLIENTS = 10;

    @Override
    public String name() {
        return "concurrency";
    }

    @Override
    public Section run(ScenarioContext context) {
        List<Integer> clients = context.settings().quick() ? List.of(1, 10) : List.of(1, 10, 100, 1000);
        List<Target> targets = context.modules();
        RunDirectory directory = context.directory().sub(name());
        Map<Integer, Map<String, RowFigures>> steps = new LinkedHashMap<>();
        Map<String, Overload> overload = new LinkedHashMap<>();
        BenchmarkSettings base = context.settings().forScenario(context.settings().threads());
        try (Lab lab = context.measurement().open(Condition.plain(name(), base, targets), directory)) {
            Map<Integer, List<JMeterResults>> runs = new LinkedHashMap<>();
            for (int count : Scenarios.thereAndBack(clients, context.settings().quick())) {
                List<JMeterResults> atCount = runs.computeIfAbsent(count, key -> new java.util.ArrayList<>());
                atCount.add(lab.run(context.settings().forScenario(count), directory.sub("clients-" + count + (atCount.isEmpty() ? "" : "-back")), false));
            }
            for (int count : clients) {
                BenchmarkSettings settings = context.settings().forScenario(count);
                Map<String, RowFigures> rows = new LinkedHashMap<>();
                targets.forEach(target -> rows.put(target.id(), RowFigures.of(target.id(), runs.get(count), settings)));
                steps.put(count, rows);
            }
            Map<String, Integer> offered = new LinkedHashMap<>();
            // quick: one row, since each row's overload is a run of its own that waits its drain out, and another row takes the same path
            for (Target target : targets.stream().filter(target -> target.module().role() != Role.CEILING)
                    .limit(context.settings().quick() ? 1 : Long.MAX_VALUE).toList()) {
                // the ceiling is left out: it serves faster than JMeter on the same cores can offer (16,083/s asked, 2,083/s sent, a
                // 6 s run lasting 40-59 s), so its overload would measure JMeter
                double best = steps.values().stream().map(rows -> rows.get(target.id()).tpsMedian()).filter(tps -> tps != null)
                        .mapToDouble(Double::doubleValue).max().orElse(10);
                offered.put(target.id(), (int) Math.max(10, Math.ceil(best * OVERLOAD)));
            }
            if (!offered.isEmpty()) {
                JMeterResults results = lab.run(Schedule.openModel(base, offered), base, directory.sub("overload"));
                offered.forEach((target, rate) -> overload.put(target, Overload.of(target, rate, results, base)));
            }
        }
        return section(context.settings(), clients, targets, steps, overload);
    }

    /** One module offered more than it serves: what it achieved, how its requests fared, and why those that failed did. */
    record Overload(int offeredPerSecond, double achievedPerSecond, long samples, long errors, Long p50Ms, Long p99Ms, Map<String, Long> failures) {

        static Overload of(String target, int offered, JMeterResults results, BenchmarkSettings settings) {
            List<Sample> samples = new ArrayList<>();
            List<Double> served = new ArrayList<>();
            for (int repetition = 1; repetition <= settings.repetitions(); repetition++) {
                List<Sample> run = results.samples(new RunKey(target, Phase.LATENCY, repetition));
                samples.addAll(run);
                // per repetition: the repetitions are apart in time, the other rows' runs in between
                served.add(run.isEmpty() ? null : RunStatistics.of(run, 0).tps());
            }
            RunStatistics statistics = RunStatistics.of(samples, 0);
            Spread achieved = Spread.of(served);
            return new Overload(offered, achieved == null ? 0 : achieved.median(), statistics.samples(), statistics.errors(), statistics.p50Ms(),
                    statistics.p99Ms(), FailedRequests.kinds(results.failures(target)));
        }

        double errorPercent() {
            return samples == 0 ? 0 : errors * 100.0 / samples;
        }

        String describe() {
            String failed = failures.isEmpty() ? "no failure" : FailedRequests.counted(failures);
            return "offered %s/s, served %s/s; %s %% failed (%s); p50 / p99 %s / %s ms".formatted(Format.grouped(offeredPerSecond),
                    Format.grouped(achievedPerSecond), Format.number(Math.round(errorPercent() * 10) / 10.0), failed, p50Ms, p99Ms);
        }
    }

    private Section section(BenchmarkSettings settings, List<Integer> clients, List<Target> targets, Map<Integer, Map<String, RowFigures>> steps,
            Map<String, Overload> overload) {
        List<String> header = new ArrayList<>(List.of("module"));
        clients.forEach(count -> header.add(count + " client" + (count == 1 ? "" : "s") + ": TPS, p50 / p99 ms, failed"));
        int modelClients = modelClients(clients, settings.threads());
        header.add("requests / s per application core · per Redis core, by clients (vs %d clients)".formatted(modelClients));
        header.add("overload (open model)");
        Map<String, ModelCheck> models = new LinkedHashMap<>();
        List<List<String>> rows = new ArrayList<>();
        Map<String, List<Charts.Point>> tps = new LinkedHashMap<>();
        Map<String, List<Charts.Point>> p99 = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (Target target : targets) {
            String id = target.id();
            List<String> row = new ArrayList<>(List.of(id));
            for (int count : clients) {
                RowFigures figures = steps.get(count).get(id);
                row.add("%s, %s / %s, %s".formatted(RowFigures.spread(figures.tps()), figures.latency().p50Ms(), figures.latency().p99Ms(),
                        figures.failed()));
                tps.computeIfAbsent(id, key -> new ArrayList<>()).add(new Charts.Point(count, figures.tpsMedian()));
                p99.computeIfAbsent(id, key -> new ArrayList<>()).add(new Charts.Point(count,
                        figures.latency().p99Ms() == null ? null : Math.max(1, figures.latency().p99Ms()) * 1.0));
                problems.addAll(figures.faults(name(), count + " clients"));
            }
            Map<Integer, Fleet.Spreads> fleet = new LinkedHashMap<>();
            clients.forEach(count -> fleet.put(count, steps.get(count).get(id).fleet()));
            ModelCheck model = ModelCheck.of(modelClients, fleet);
            models.put(id, model);
            row.add(model.describe());
            row.add(overload.containsKey(id) ? overload.get(id).describe()
                    : target.module().role() != Role.CEILING ? "not offered: a quick run offers one row"
                    : "not offered: it serves faster than JMeter here can offer");
            if (overload.containsKey(id) && overload.get(id).failures().containsKey(FailedRequests.WRONG_ANSWER)) {
                problems.add("%s, overload: module %s answered 200 with a wrong body".formatted(name(), id));
            }
            rows.add(row);
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("clients", clients);
        data.put("steps", steps);
        data.put("overload", overload);
        data.put("model", models);
        return new Section(name(), "Clients and overload",
                "Each row under more and more concurrent clients (closed model: each client sends its next request when the last one "
                        + "came back), then offered more than it can serve (open model at %s x its best throughput, for %d s).".formatted(
                                Format.number(OVERLOAD), settings.latencyDurationSeconds()),
                header, rows,
                List.of(Charts.lines("concurrency-tps", "Throughput against concurrent clients", tps, "concurrent clients (log)", true, "TPS", true),
                        Charts.lines("concurrency-p99", "99th percentile latency against concurrent clients", p99, "concurrent clients (log)", true,
                                "p99 ms (JMeter, whole ms; 0 shown as 1)", true)),
                List.of(("Each step: closed-model TPS over %d s, median of %d repetition(s) (range), and latency over all its samples. "
                        + "Overload: every module at once is not offered more than the machine can give; each is offered its own rate in "
                        + "turn. JMeter, on the same two cores, may itself fall short of the rate offered to the fastest modules: then "
                        + "'served' is JMeter's limit, not the module's.").formatted(settings.scenarioDurationSeconds(), settings.scenarioRepetitions()),
                        ("Requests / s per application core, and per Redis core: 1,000,000 over the CPU µs one request cost the module's JVM alone, or Redis alone, at that step, median of the "
                                + "repetitions; in brackets, how far it is from the %d-client step's, the cost per request the fleet model takes for any "
                                + "load (docs/fleet.md). n/a: the row has no Redis.").formatted(modelClients)),
                data, problems);
    }

    /** The step whose cost per request the fleet model takes: the headline's client count if it is a step, else {@value #MODEL_CLIENTS}. */
    static int modelClients(List<Integer> clients, int headlineClients) {
        return clients.contains(headlineClients) ? headlineClients : MODEL_CLIENTS;
    }

    /**
     * The fleet model's assumption (docs/fleet.md) against the steps, for one row: the model takes what one request cost at
     * {@code modelClients} clients, and multiplies it by the rate. Per step, requests a second per application core and per
     * Redis core (the medians of the repetitions of {@link RowFigures#fleet()}), and how far each is from the model step's, in
     * %: {@code (step - model) x 100 / model}. A figure is null where it was not measured; the Redis side is null for a row
     * without Redis.
     */
    record ModelCheck(int modelClients, Double appRequestsPerCore, Double redisRequestsPerCore, boolean redis, List<Step> steps) {

        /** One step: its client count, its two rates per core, and each one's difference from the model's, in %. */
        record Step(int clients, Double appRequestsPerCore, Double appDifferencePercent, Double redisRequestsPerCore,
                Double redisDifferencePercent) {
        }

        /** From each step's fleet spreads, by client count, in the order of the steps. */
        static ModelCheck of(int modelClients, Map<Integer, Fleet.Spreads> byClients) {
            Fleet.Spreads model = byClients.get(modelClients);
            Double app = median(model == null ? null : model.appRequestsPerCore());
            Double redisRate = median(model == null ? null : model.redisRequestsPerCore());
            boolean redis = byClients.values().stream().anyMatch(spreads -> spreads != null && spreads.bytesToRedis() != null);
            List<Step> steps = new ArrayList<>();
            byClients.forEach((clients, spreads) -> {
                Double stepApp = median(spreads == null ? null : spreads.appRequestsPerCore());
                Double stepRedis = median(spreads == null ? null : spreads.redisRequestsPerCore());
                steps.add(new Step(clients, stepApp, difference(stepApp, app), stepRedis, difference(stepRedis, redisRate)));
            });
            return new ModelCheck(modelClients, app, redisRate, redis, List.copyOf(steps));
        }

        /** {@code 1: 25,000 (+25 %) · 40,000 (-20 %); 10 (model): 20,000 · 50,000}. */
        String describe() {
            List<String> parts = new ArrayList<>();
            for (Step step : steps) {
                boolean model = step.clients() == modelClients;
                parts.add("%s%s: %s · %s".formatted(Format.grouped(step.clients()), model ? " (model)" : "",
                        rate(step.appRequestsPerCore(), model ? null : step.appDifferencePercent()),
                        redis ? rate(step.redisRequestsPerCore(), model ? null : step.redisDifferencePercent()) : "n/a"));
            }
            return String.join("; ", parts);
        }

        /** {@code (step - model) x 100 / model}; null where either is missing. */
        static Double difference(Double step, Double model) {
            return step == null || model == null || model <= 0 ? null : (step - model) * 100 / model;
        }

        private static String rate(Double rate, Double percent) {
            if (rate == null) {
                return "missing";
            }
            if (percent == null) {
                return Format.grouped(rate);
            }
            long rounded = Math.round(percent);
            return Format.grouped(rate) + (rounded == 0 ? " (0 %)" : String.format(Locale.ROOT, " (%+d %%)", rounded));
        }

        private static Double median(Spread spread) {
            return spread == null ? null : spread.median();
        }
    }
}
