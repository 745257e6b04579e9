package dev.colorbench.benchmark.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
import dev.colorbench.benchmark.run.Verification;
import dev.colorbench.testkit.RedisCommandStats;
import dev.colorbench.testkit.statistics.Interval;
import dev.colorbench.testkit.statistics.Statistics;

/**
 * {@code servers}: the same Redis rows on several servers, measured in the headline's forks, every row on every server in every
 * round, and judged by its rule: a server's CPU per request against the run's own Redis is a ratio taken within each round. Every row
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
        // each fork starts every row on every server in fresh JVMs, as the headline's forks do: a server's figure against the
        // run's own Redis is then judged by the headline's rule, not by two medians
        record FirstLab(Verification verification, String stores, String redis) {
        }
        java.util.concurrent.atomic.AtomicReference<FirstLab> first = new java.util.concurrent.atomic.AtomicReference<>();
        List<JMeterResults> byFork = Scenarios.roundsInForks(context, Condition.plain(name(), settings, targets), directory, settings, false, lab -> {
            try (RedisCommandStats redis = RedisCommandStats.connect(lab.stores().redisUrl())) {
                first.set(new FirstLab(lab.verification(), lab.stores().describe(),
                        redis.server() + (settings.embeddedRedis() ? " (embedded)" : " (REDIS_URL)")));
            }
        });
        int forks = byFork.size();
        Verification verification = first.get().verification();
        String runsRedis = first.get().redis();
        String stores = first.get().stores();
        Map<String, RowFigures> figures = new LinkedHashMap<>();
        targets.forEach(target -> figures.put(target.id(), RowFigures.of(target.id(), byFork, settings)));
        List<Column> columns = new ArrayList<>();
        columns.add(new Column(runsRedis, null));
        servers.forEach(server -> columns.add(new Column(server.label(), server)));
        return section(settings, forks, modules, columns, verification, figures, RowFigures.cpuRounds(targets, byFork, settings), stores);
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

    private Section section(BenchmarkSettings settings, int forks, List<Target> modules, List<Column> columns, Verification verification,
            Map<String, RowFigures> figures, Statistics.Rounds cpu, String stores) {
        String first = columns.get(0).label().replaceAll(" \\(.*", "");
        List<String> header = new ArrayList<>(List.of("module", "commands / request (round trips)"));
        columns.forEach(column -> {
            header.add(column.label() + ": TPS (min-max)");
            header.add(column.label() + ": CPU µs / request (95 % interval); module + server");
            if (column.server() != null) {
                header.add(column.label() + ": CPU against " + first);
            }
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
            Map<String, Object> entry = new LinkedHashMap<>();
            for (Column column : columns) {
                String id = column.idOf(module);
                RowFigures cell = figures.get(id);
                row.add(RowFigures.spread(cell.tps()) + cell.failedIfAny("; "));
                row.add(RowFigures.interval(cpu.figure(id)) + "; " + median(cell.moduleCpuMicros()) + " + " + median(cell.storeCpuMicros()));
                if (column.server() != null) {
                    row.add(RowFigures.against(cpu, id, module.id()));
                }
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
        notes.add(("Closed model, %d client threads, %d s, %d round(s) in each of %d fork(s), every row on every server in every round, in an "
                + "order of its own; each fork starts them all in fresh JVMs, each server with its default settings. CPU µs / request: the "
                + "module's process and the server's own (INFO cpu), counted from outside both, with its 95 %% interval as the headline's; "
                + "module + server: their medians apart. CPU against %s: the row's CPU per request on that server over the same row's on %s, "
                + "taken within each round, with its interval; level where that interval holds 1, as the headline ranks rows. TPS: median and "
                + "range of the rounds. Commands per request are counted on the run's own Redis.")
                .formatted(settings.threads(), settings.scenarioDurationSeconds(), settings.scenarioRepetitions(), forks, first, first));
        notes.add(ranking(modules, columns, cpu));
        if (forks < 2) {
            notes.add("One fork cannot show how JVMs differ, so this run ranks no row apart from another.");
        }
        return new Section(name(), "On other Redis and Valkey servers",
                "The same Redis rows against several servers, measured in the same run: " + stores + ".", header, table,
                List.of(Charts.bars("servers-tps", "Throughput of each row on each server", labels, tps, "TPS", true),
                        Charts.bars("servers-cpu", "The server's CPU per request", labels, serverCpu, "server CPU µs / request", true)),
                notes, data, problems);
    }

    /**
     * The rows on each server from cheapest to dearest CPU per request, level where the headline's rule cannot separate them, and
     * how many rows each server moves apart from the same row on the first.
     */
    static String ranking(List<Target> modules, List<Column> columns, Statistics.Rounds cpu) {
        List<String> orders = new ArrayList<>();
        for (Column column : columns) {
            orders.add(column.label() + ": " + RowFigures.order(cpu, modules.stream().map(column::idOf).toList()));
        }
        List<String> moves = new ArrayList<>();
        for (Column column : columns.subList(1, columns.size())) {
            List<Interval> ratios = new ArrayList<>();
            long apart = 0;
            for (Target module : modules) {
                Interval ratio = cpu.ratio(column.idOf(module), module.id());
                if (ratio != null) {
                    ratios.add(ratio);
                    apart += cpu.apart(column.idOf(module), module.id()) ? 1 : 0;
                }
            }
            if (!ratios.isEmpty()) {
                moves.add("%s x %s to x %s, %d of %d rows apart".formatted(column.label(),
                        Format.ratio(ratios.stream().mapToDouble(Interval::estimate).min().getAsDouble()),
                        Format.ratio(ratios.stream().mapToDouble(Interval::estimate).max().getAsDouble()), apart, ratios.size()));
            }
        }
        return "Ranked by CPU per request on each server, as the headline ranks: " + String.join("; ", orders) + "."
                + (moves.isEmpty() ? "" : " CPU per request against the same row on " + columns.get(0).label() + ": " + String.join("; ", moves) + ".");
    }

    private static String median(Spread spread) {
        return spread == null ? "n/a" : Format.grouped(spread.median());
    }
}
