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
import dev.colorbench.benchmark.run.Lab;
import dev.colorbench.benchmark.run.Verification;

/**
 * {@code cluster}: every Redis pattern on a Redis Cluster, beside itself on one Redis server. Each
 * module runs twice in the same lab, measured in the same JMeter run with interleaved repetitions:
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
        Map<String, RowFigures> figures = new LinkedHashMap<>();
        Verification verification;
        String stores;
        try (Lab lab = context.measurement().open(Condition.plain(name(), settings, targets), directory)) {
            verification = lab.verification();
            stores = lab.stores().describe();
            JMeterResults results = lab.run(settings, directory, false);
            targets.forEach(target -> figures.put(target.id(), RowFigures.of(target.id(), results, settings)));
        }
        return section(settings, rows, verification, figures, stores);
    }

    /** A module on one server and on the cluster, or one of its cluster variants (on the cluster only, {@code oneServer} null). */
    record Row(String label, Target oneServer, Target cluster, String compareWith) {
    }

    /**
     * The Redis patterns among the scenario's rows (with a module that has a cluster variant added if none has
     * one), on one server and on the cluster, each followed by its cluster variants.
     */
    private static List<Row> rows(ScenarioContext context) {
        List<Target> modules = new ArrayList<>(context.redisPatterns());
        if (modules.stream().noneMatch(target -> !target.module().clusterVariants().isEmpty())) {
            context.targets().stream().filter(target -> target.properties().isEmpty() && !target.module().clusterVariants().isEmpty())
                    .findFirst().ifPresent(modules::add);
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

    private Section section(BenchmarkSettings settings, List<Row> rows, Verification verification, Map<String, RowFigures> figures,
            String stores) {
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
            table.add(List.of(row.label(),
                    oneServer == null ? "-" : work(verification.of(row.oneServer().id()).redis()),
                    oneServer == null ? "-" : RowFigures.spread(oneServer.tps()) + oneServer.failedIfAny("; "),
                    work(clusterCost),
                    clusterCost.describeMasters(),
                    RowFigures.spread(cluster.tps()) + cluster.failedIfAny("; "),
                    compared == null || compared.tpsMedian() == null || cluster.tpsMedian() == null ? "-"
                            : Format.ratio(cluster.tpsMedian() / compared.tpsMedian())));
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
            data.put(row.label(), entry);
        }
        return new Section(name(), "On a Redis Cluster",
                "Each Redis pattern among the rows against one Redis server and against a Redis Cluster, measured in the same run: " + stores + ".",
                List.of("module", "one server: commands / request (round trips)", "one server: TPS", "cluster: commands / request (round trips)",
                        "cluster: by master", "cluster: TPS", "x one server"),
                table,
                List.of(Charts.bars("cluster-tps", "Throughput on one Redis server and on a Redis Cluster", labels, series, "TPS", false)),
                List.of(("Closed model, %d client threads, %d s, median of %d repetition(s) (range), one server and cluster rows interleaved "
                        + "in one JMeter run. Commands and round trips are counted before the load on the server, or on each master of the "
                        + "cluster (INFO commandstats, socket reads) and summed; 'by master' shows each master's share. A variant row (module+variant) "
                        + "runs on the cluster only and is compared with its module on one server.").formatted(settings.threads(),
                                settings.scenarioDurationSeconds(), settings.scenarioRepetitions())),
                data, problems);
    }

    /** {@code 148 MGET (71 round trips)}. */
    private static String work(Verification.Cost cost) {
        return cost.describeCommands() + (cost.roundTrips() == null ? "" : " (" + Format.number(cost.roundTrips()) + ")");
    }
}
