package dev.colorbench.benchmark.scenario;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Console;
import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.RunDirectory;
import dev.colorbench.benchmark.modules.RedisServer;
import dev.colorbench.benchmark.modules.Role;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.report.Section;
import dev.colorbench.benchmark.results.JMeterResults;
import dev.colorbench.benchmark.results.Spread;
import dev.colorbench.benchmark.run.Condition;
import dev.colorbench.benchmark.run.Lab;
import dev.colorbench.benchmark.run.Verification;
import dev.colorbench.testkit.RedisCommandStats;

/**
 * {@code servers}: the same Redis rows on several servers, measured in one JMeter run with interleaved repetitions. Every row
 * reads the run's own Redis (embedded, or {@code REDIS_URL}) and, as a module of its own, each server of
 * {@code benchmark.servers} ({@link ServerChoice}): current Redis and Valkey releases fetched from Debian's archive by default.
 * Each cell shows the throughput and what one request costs on the CPU, in the module and in the server apart, so that a
 * server that does the same commands with less work shows it directly (docs/servers.md).
 */
final class Servers implements Scenario {

    /**
     * The rows unless {@code benchmark.modules} names them: the loop every ratio is taken against, one pipeline of 148 GETs,
     * and the two one-MGET rows of the verdict. Quick mode keeps the fastest MGET row alone: each row is a module JVM on every
     * server, and a second row would start as many JVMs again to take the same path.
     */
    private static final String[] ROWS = { "cacheable-loop,pipelined-get,template-mget,mget-raw", "mget-raw" };

    @Override
    public String name() {
        return "servers";
    }

    @Override
    public Section run(ScenarioContext context) {
        BenchmarkSettings settings = context.settings().forScenario(context.settings().threads());
        List<RedisServer> servers;
        try {
            servers = ServerChoice.resolve(context.settings().servers(), context.measurement().repositoryRoot());
        }
        catch (ServerChoice.NoServers none) {
            if (context.settings().scenarios().contains(name())) {
                throw none;
            }
            Console.info("servers: left out: " + none.getMessage());
            return new Section(name(), "On other Redis and Valkey servers", "Left out of this run: " + none.getMessage(), List.of(), List.of(),
                    List.of(), List.of(), Map.of(), List.of());
        }
        List<Target> modules = rows(context);
        List<Target> targets = new ArrayList<>(modules);
        servers.forEach(server -> modules.forEach(module -> targets.add(Target.onServer(module.module(), server))));
        RunDirectory directory = context.directory().sub(name());
        Map<String, RowFigures> figures = new LinkedHashMap<>();
        Verification verification;
        String runsRedis;
        String stores;
        try (Lab lab = context.measurement().open(Condition.plain(name(), settings, targets), directory)) {
            verification = lab.verification();
            stores = lab.stores().describe();
            try (RedisCommandStats redis = RedisCommandStats.connect(lab.stores().redisUrl())) {
                runsRedis = redis.server() + (settings.embeddedRedis() ? " (embedded)" : " (REDIS_URL)");
            }
            JMeterResults results = lab.run(settings, directory, false);
            targets.forEach(target -> figures.put(target.id(), RowFigures.of(target.id(), results, settings)));
        }
        List<Column> columns = new ArrayList<>();
        columns.add(new Column(runsRedis, null));
        servers.forEach(server -> columns.add(new Column(server.label(), server)));
        return section(settings, modules, columns, verification, figures, stores);
    }

    /** One server's column: the run's own Redis ({@code server} null) or one of {@code benchmark.servers}. */
    record Column(String label, RedisServer server) {

        String idOf(Target module) {
            return server == null ? module.id() : Target.onServer(module.module(), server).id();
        }
    }

    private static List<Target> rows(ScenarioContext context) {
        if (!context.settings().modules().isEmpty()) {
            return context.redisPatterns();
        }
        List<String> ids = List.of(ROWS[context.settings().quick() ? 1 : 0].split(","));
        return context.catalog().targets("servers scenario", ids).stream()
                .filter(target -> target.module().role() == Role.REDIS_PATTERN).toList();
    }

    private Section section(BenchmarkSettings settings, List<Target> modules, List<Column> columns, Verification verification,
            Map<String, RowFigures> figures, String stores) {
        List<String> header = new ArrayList<>(List.of("module", "commands / request (round trips)"));
        columns.forEach(column -> {
            header.add(column.label() + ": TPS" + (column.server() == null ? "" : ", x " + columns.get(0).label().replaceAll(" \\(.*", "")));
            header.add(column.label() + ": CPU µs / request, module + server");
        });
        List<List<String>> table = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Map<String, List<Double>> tps = new LinkedHashMap<>();
        Map<String, List<Double>> serverCpu = new LinkedHashMap<>();
        Map<String, Object> data = new LinkedHashMap<>();
        for (Target module : modules) {
            Verification.Cost cost = verification.of(module.id()).redis();
            List<String> row = new ArrayList<>(List.of(module.id(), cost.describeCommands()
                    + (cost.roundTrips() == null ? "" : " (" + Format.number(cost.roundTrips()) + ")")));
            RowFigures base = figures.get(module.id());
            Map<String, Object> entry = new LinkedHashMap<>();
            for (Column column : columns) {
                RowFigures cell = figures.get(column.idOf(module));
                String ratio = column.server() == null || base.tpsMedian() == null || cell.tpsMedian() == null ? ""
                        : ", " + Format.ratio(cell.tpsMedian() / base.tpsMedian());
                row.add(RowFigures.spread(cell.tps()) + ratio + cell.failedIfAny("; "));
                row.add(median(cell.moduleCpuMicros()) + " + " + median(cell.storeCpuMicros()));
                tps.computeIfAbsent(column.label(), key -> new ArrayList<>()).add(cell.tpsMedian());
                serverCpu.computeIfAbsent(column.label(), key -> new ArrayList<>())
                        .add(cell.storeCpuMicros() == null ? null : cell.storeCpuMicros().median());
                problems.addAll(cell.faults(name(), column.label()));
                entry.put(column.label(), cell);
            }
            table.add(row);
            data.put(module.id(), entry);
        }
        List<String> labels = modules.stream().map(Target::id).toList();
        List<String> notes = new ArrayList<>();
        notes.add(("Closed model, %d client threads, %d s, median of %d repetition(s) (range); every row on every server interleaved in one "
                + "JMeter run, each server with its default settings. CPU µs / request: the module's process and the server's own (INFO cpu), "
                + "each over the requests of the same run, medians. Commands per request are counted on the run's own Redis.")
                .formatted(settings.threads(), settings.scenarioDurationSeconds(), settings.scenarioRepetitions()));
        notes.add(ranking(modules, columns, figures));
        return new Section(name(), "On other Redis and Valkey servers",
                "The same Redis rows against several servers, measured in the same run: " + stores + ".", header, table,
                List.of(Charts.bars("servers-tps", "Throughput of each row on each server", labels, tps, "TPS", true),
                        Charts.bars("servers-cpu", "The server's CPU per request", labels, serverCpu, "server CPU µs / request", true)),
                notes, data, problems);
    }

    /** Whether the rows rank the same by throughput on every server, and how far each server moves them from the first. */
    static String ranking(List<Target> modules, List<Column> columns, Map<String, RowFigures> figures) {
        Map<String, List<String>> orders = new LinkedHashMap<>();
        for (Column column : columns) {
            orders.put(column.label(), modules.stream().filter(module -> figures.get(column.idOf(module)).tpsMedian() != null)
                    .sorted(Comparator.comparing((Target module) -> figures.get(column.idOf(module)).tpsMedian()).reversed())
                    .map(Target::id).toList());
        }
        List<String> first = orders.values().iterator().next();
        boolean same = orders.values().stream().allMatch(first::equals);
        String order = same ? "The rows rank the same by throughput on every server: " + String.join(" > ", first) + "."
                : "The rows rank differently: " + orders.entrySet().stream()
                        .map(entry -> entry.getKey() + ": " + String.join(" > ", entry.getValue())).collect(Collectors.joining("; ")) + ".";
        List<String> moves = new ArrayList<>();
        for (Column column : columns.subList(1, columns.size())) {
            List<Double> ratios = new ArrayList<>();
            for (Target module : modules) {
                Double base = figures.get(module.id()).tpsMedian();
                Double other = figures.get(column.idOf(module)).tpsMedian();
                if (base != null && other != null && base > 0) {
                    ratios.add(other / base);
                }
            }
            if (!ratios.isEmpty()) {
                moves.add("%s %s to %s".formatted(column.label(), Format.ratio(ratios.stream().min(Double::compare).get()),
                        Format.ratio(ratios.stream().max(Double::compare).get())));
            }
        }
        return order + (moves.isEmpty() ? "" : " Throughput as a multiple of the same row on " + columns.get(0).label() + ": "
                + String.join("; ", moves) + ".");
    }

    private static String median(Spread spread) {
        return spread == null ? "n/a" : Format.grouped(spread.median());
    }
}
