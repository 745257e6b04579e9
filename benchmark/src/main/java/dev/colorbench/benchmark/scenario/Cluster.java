package dev.colorbench.benchmark.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.RunDirectory;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.report.Section;
import dev.colorbench.benchmark.results.JMeterResults;
import dev.colorbench.benchmark.run.Condition;
import dev.colorbench.benchmark.run.Verification;
import dev.colorbench.testkit.statistics.Statistics;

/**
 * {@code cluster}: every Redis pattern on a Redis Cluster, beside itself on one Redis server. Each
 * module runs twice in the same lab, in the headline's forks, every row in every round, and a cluster row is set
 * against its module on one server by the headline's rule, the ratio of their rounds:
 * once against the single embedded Redis, once against a cluster of three masters (embedded, or the
 * one {@code REDIS_CLUSTER_NODES} names), plus the rows its pom declares as
 * {@code colorbench.clusterVariants} (template-mget and mget-raw with every key hash-tagged into one
 * slot). What a request costs is counted on each master ({@code INFO commandstats} and socket reads),
 * so the table shows how the client spreads a multi-key read: Lettuce splits an MGET into one per
 * hash slot, a pipeline goes out once per master, a hash tag puts everything on one master.
 */
final class Cluster implements Scenario {

    @Override
    public String name() {
        return "cluster";
    }

    @Override
    public Section run(ScenarioContext context) {
        BenchmarkSettings settings = context.settings().forScenario(context.settings().threads());
        List<Row> rows = rows(context);
        List<Target> targets = new ArrayList<>();
        rows.forEach(row -> {
            if (row.oneServer() != null) {
                targets.add(row.oneServer());
            }
            targets.add(row.cluster());
        });
        RunDirectory directory = context.directory().sub(name());
        // each fork starts every row, on the server and on the cluster, in fresh JVMs, as the headline's forks do
        record FirstLab(Verification verification, String stores) {
        }
        java.util.concurrent.atomic.AtomicReference<FirstLab> first = new java.util.concurrent.atomic.AtomicReference<>();
        List<JMeterResults> byFork = Scenarios.roundsInForks(context, Condition.plain(name(), settings, targets), directory, settings, false,
                lab -> first.set(new FirstLab(lab.verification(), lab.stores().describe())));
        int forks = byFork.size();
        Verification verification = first.get().verification();
        String stores = first.get().stores();
        Map<String, RowFigures> figures = new LinkedHashMap<>();
        targets.forEach(target -> figures.put(target.id(), RowFigures.of(target.id(), byFork, settings)));
        return section(settings, forks, rows, verification, figures, RowFigures.cpuRounds(targets, byFork, settings), stores);
    }

    /** A module on one server and on the cluster, or one of its cluster variants (on the cluster only, {@code oneServer} null). */
    record Row(String label, Target oneServer, Target cluster, String compareWith) {
    }

    /**
     * The Redis patterns among the scenario's rows (with a module that has a cluster variant added if none has
     * one), on one server and on the cluster, each followed by its cluster variants. A quick run that names no rows takes that
     * module alone: on one server, on the cluster and as its variant, it takes every kind of row, and each other module would
     * start two JVMs more to take the same paths.
     */
    private static List<Row> rows(ScenarioContext context) {
        List<Target> modules = new ArrayList<>(context.redisPatterns());
        if (modules.stream().noneMatch(target -> !target.module().clusterVariants().isEmpty())) {
            context.targets().stream().filter(target -> target.properties().isEmpty() && !target.module().clusterVariants().isEmpty())
                    .findFirst().ifPresent(modules::add);
        }
        List<Target> withVariant = modules.stream().filter(target -> !target.module().clusterVariants().isEmpty()).limit(1).toList();
        if (context.settings().quick() && context.settings().modules().isEmpty() && !withVariant.isEmpty()) {
            modules = withVariant;
        }
        List<Row> rows = new ArrayList<>();
        for (Target module : modules) {
            rows.add(new Row(module.id(), module, Target.onCluster(module.module()), module.id()));
            module.module().clusterVariants().forEach(variant -> {
                Target onCluster = Target.onCluster(module.module(), variant);
                rows.add(new Row(module.id() + "+" + variant.name(), null, onCluster, module.id()));
            });
        }
        return rows;
    }

    private Section section(BenchmarkSettings settings, int forks, List<Row> rows, Verification verification, Map<String, RowFigures> figures,
            Statistics.Rounds cpu, String stores) {
        List<List<String>> table = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        Map<String, List<Double>> series = new LinkedHashMap<>();
        Map<String, Object> data = new LinkedHashMap<>();
        for (Row row : rows) {
            RowFigures cluster = figures.get(row.cluster().id());
            RowFigures oneServer = row.oneServer() == null ? null : figures.get(row.oneServer().id());
            RowFigures compared = figures.get(row.compareWith());
            Verification.Cost clusterCost = verification.of(row.cluster().id()).redis();
            ModelCheck model = ModelCheck.of(compared, cluster, clusterCost);
            table.add(List.of(row.label(),
                    oneServer == null ? "-" : work(verification.of(row.oneServer().id()).redis()),
                    oneServer == null ? "-" : RowFigures.spread(oneServer.tps()) + oneServer.failedIfAny("; "),
                    oneServer == null ? "-" : RowFigures.interval(cpu.figure(row.oneServer().id())),
                    work(clusterCost),
                    clusterCost.describeMasters(),
                    RowFigures.spread(cluster.tps()) + cluster.failedIfAny("; "),
                    RowFigures.interval(cpu.figure(row.cluster().id())),
                    compared == null ? "-" : RowFigures.against(cpu, row.cluster().id(), row.compareWith()),
                    model.describeMicros(), model.describeRate(), model.describeBytes()));
            labels.add(row.label());
            series.computeIfAbsent("one Redis server", key -> new ArrayList<>()).add(oneServer == null ? null : oneServer.tpsMedian());
            series.computeIfAbsent("Redis Cluster", key -> new ArrayList<>()).add(cluster.tpsMedian());
            if (oneServer != null) {
                problems.addAll(oneServer.faults(name(), "one server"));
            }
            problems.addAll(cluster.faults(name(), "cluster"));
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("oneServer", oneServer == null ? null : Map.of("redis", verification.of(row.oneServer().id()).redis(), "figures", oneServer));
            entry.put("cluster", Map.of("redis", clusterCost, "figures", cluster));
            entry.put("model", model);
            data.put(row.label(), entry);
        }
        return new Section(name(), "On a Redis Cluster",
                "Each Redis pattern among the rows against one Redis server and against a Redis Cluster, measured in the same run: " + stores + ".",
                List.of("module", "one server: commands / request (round trips)", "one server: TPS", "one server: CPU µs / request (95 % interval)",
                        "cluster: commands / request (round trips)",
                        "cluster: by master", "cluster: TPS", "cluster: CPU µs / request (95 % interval)", "cluster: CPU against one server",
                        "Redis CPU µs / request: one server → cluster, masters summed (difference)",
                        "Redis's most requests / s: model, masters x one server's per core → cluster, by its busiest master (difference)",
                        "bytes / request to · from Redis: one server → cluster"),
                table,
                List.of(Charts.bars("cluster-tps", "Throughput on one Redis server and on a Redis Cluster", labels, series, "TPS", false)),
                notes(settings, forks),
                data, problems);
    }

    private static List<String> notes(BenchmarkSettings settings, int forks) {
        List<String> notes = new ArrayList<>(List.of(("Closed model, %d client threads, %d s, %d round(s) in each of %d fork(s), every one-server "
                + "and cluster row in every round, in an order of its own; each fork starts them all in fresh JVMs. TPS: median and range of the "
                + "rounds. CPU per request: the module's and Redis's, its masters summed, counted from outside them, with its 95 %% interval as "
                + "the headline's. CPU against one server: the cluster row's CPU per request over its module's on one server, taken within each "
                + "round, with its interval; level where that interval holds 1, as the headline ranks rows. Commands and round trips are counted "
                + "before the load on the server, or on each master of the cluster (INFO commandstats, socket reads) and summed; 'by master' "
                + "shows each master's share. A variant row (module+variant) runs on the cluster only and is compared with its module on one "
                + "server.").formatted(settings.threads(), settings.scenarioDurationSeconds(), settings.scenarioRepetitions(), forks),
                        "The fleet model checked (docs/fleet.md): from the one-server row, one request costs Redis the same CPU on a cluster, and a "
                                + "cluster of N masters serves N times what one Redis core serves, load spread evenly. Against it, the cluster row's Redis "
                                + "CPU per request summed over its masters, and the most it would serve: its busiest master full, that master taking its "
                                + "share of the round trips (or of the commands) counted before the load, 1,000,000 / (µs per request x share). "
                                + "Differences are the cluster's figure against the model's, medians of the rounds: a check of the model, not a ranking."));
        if (forks < 2) {
            notes.add("One fork cannot show how JVMs differ, so this run calls no cluster row apart from its module on one server.");
        }
        return notes;
    }

    /**
     * The fleet model (docs/fleet.md) against the measured cluster, for one row: the model takes the one-server row's Redis
     * CPU per request, and a cluster of {@code masters} serving {@code masters x 1e6 / µs}; the cluster row measured its
     * Redis CPU per request summed over its masters, and its busiest master's share of the round trips (of the commands
     * where round trips were not counted) says when that master is full: {@code 1e6 / (µs x share)}. Bytes per request,
     * to and from Redis, on both. Medians of the repetitions; a difference is the cluster's against the model's, in %.
     * A figure is null where it was not measured.
     */
    record ModelCheck(Double oneServerRedisMicros, Double clusterRedisMicros, Double redisMicrosDifferencePercent, int masters,
            Double modelRequestsPerSecond, Double busiestMasterShare, String busiestMasterBy, Double clusterRequestsPerSecond,
            Double requestsPerSecondDifferencePercent, Double oneServerBytesToRedis, Double oneServerBytesFromRedis, Double clusterBytesToRedis,
            Double clusterBytesFromRedis) {

        static ModelCheck of(RowFigures oneServer, RowFigures cluster, Verification.Cost clusterCost) {
            Double one = median(oneServer == null ? null : oneServer.storeCpuMicros());
            Double measured = median(cluster.storeCpuMicros());
            int masters = clusterCost.masters().size();
            boolean byRoundTrips = !clusterCost.masters().isEmpty() && clusterCost.masters().stream().allMatch(master -> master.roundTrips() != null);
            double total = clusterCost.masters().stream().mapToDouble(master -> byRoundTrips ? master.roundTrips() : master.commandsPerRequest()).sum();
            Double share = total <= 0 ? null
                    : clusterCost.masters().stream().mapToDouble(master -> byRoundTrips ? master.roundTrips() : master.commandsPerRequest()).max().orElse(0)
                            / total;
            Double model = one == null || one <= 0 || masters == 0 ? null : masters * 1e6 / one;
            Double clusterRate = measured == null || measured <= 0 || share == null || share <= 0 ? null : 1e6 / (measured * share);
            return new ModelCheck(one, measured, difference(measured, one), masters, model, share, share == null ? null : byRoundTrips ? "round trips" : "commands",
                    clusterRate, difference(clusterRate, model), median(oneServer == null ? null : oneServer.bytesToRedis()),
                    median(oneServer == null ? null : oneServer.bytesFromRedis()), median(cluster.bytesToRedis()), median(cluster.bytesFromRedis()));
        }

        /** {@code 41 → 55 (+34 %)}. */
        String describeMicros() {
            return "%s → %s%s".formatted(micros(oneServerRedisMicros), micros(clusterRedisMicros), percent(redisMicrosDifferencePercent));
        }

        /** {@code 3 x 24,390 = 73,171 → 52,000, busiest master 45 % of round trips (-29 %)}. */
        String describeRate() {
            String modelled = modelRequestsPerSecond == null ? "missing"
                    : "%d x %s = %s".formatted(masters, Format.grouped(modelRequestsPerSecond / masters), Format.grouped(modelRequestsPerSecond));
            String measured = clusterRequestsPerSecond == null ? "missing"
                    : "%s, busiest master %s of %s".formatted(Format.grouped(clusterRequestsPerSecond), Format.percent(busiestMasterShare * 100),
                            busiestMasterBy);
            return modelled + " → " + measured + percent(requestsPerSecondDifferencePercent);
        }

        /** {@code 2,290 · 11,400 → 2,410 · 11,600}. */
        String describeBytes() {
            return "%s · %s → %s · %s".formatted(bytes(oneServerBytesToRedis), bytes(oneServerBytesFromRedis), bytes(clusterBytesToRedis),
                    bytes(clusterBytesFromRedis));
        }

        private static Double median(dev.colorbench.benchmark.results.Spread spread) {
            return spread == null ? null : spread.median();
        }

        private static Double difference(Double measured, Double model) {
            return measured == null || model == null || model <= 0 ? null : (measured - model) * 100 / model;
        }

        private static String micros(Double micros) {
            return micros == null ? "missing" : micros < 10 ? Format.number(Math.round(micros * 10) / 10.0) : Format.grouped(micros);
        }

        private static String bytes(Double bytes) {
            return bytes == null ? "missing" : Format.grouped(bytes);
        }

        private static String percent(Double percent) {
            return percent == null ? "" : String.format(java.util.Locale.ROOT, " (%+.0f %%)", percent);
        }
    }

    /** {@code 148 MGET (71 round trips)}. */
    private static String work(Verification.Cost cost) {
        return cost.describeCommands() + (cost.roundTrips() == null ? "" : " (" + Format.number(cost.roundTrips()) + ")");
    }
}
