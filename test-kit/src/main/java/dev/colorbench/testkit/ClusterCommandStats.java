package dev.colorbench.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What every master of a Redis Cluster executed, from outside the application: one
 * {@link RedisCommandStats} per master ({@code INFO commandstats} and {@code total_reads_processed} on a
 * connection of its own to that node), read one after another, and their differences summed. A request
 * on a cluster is spread over the nodes that hold its keys, so this is how the tests and the benchmark see
 * what it cost: the commands and socket reads (round trips) of every node added up, and each node's share.
 * Like {@link RedisCommandStats}, its own {@code INFO} calls are taken off, and nothing else is.
 */
public final class ClusterCommandStats implements AutoCloseable {

    private final List<RedisCommandStats> masters;

    private ClusterCommandStats(List<RedisCommandStats> masters) {
        this.masters = masters;
    }

    /** Connects to each master by its {@code redis://} URL ({@link EmbeddedRedisCluster#masterUrls()}). */
    public static ClusterCommandStats connect(List<String> masterUrls) {
        List<RedisCommandStats> stats = new ArrayList<>();
        try {
            masterUrls.forEach(url -> stats.add(RedisCommandStats.connect(url)));
        }
        catch (RuntimeException ex) {
            stats.forEach(RedisCommandStats::close);
            throw ex;
        }
        return new ClusterCommandStats(List.copyOf(stats));
    }

    /** Each master's counters, in the order of the URLs given. */
    public record Snapshot(List<RedisCommandStats.Snapshot> masters) {
    }

    /**
     * What the cluster did between two readings.
     *
     * @param commands every master's commands by name, summed
     * @param roundTrips every master's socket reads, summed ({@code null} if a master cannot tell)
     * @param masters each master's own share, in the order of the URLs given
     */
    public record Usage(Map<String, Long> commands, Long roundTrips, List<RedisCommandStats.Usage> masters) {

        public long commandCount() {
            return commands.values().stream().mapToLong(Long::longValue).sum();
        }

        /** How many masters executed any command. */
        public long mastersUsed() {
            return masters.stream().filter(usage -> usage.commandCount() > 0).count();
        }

        /** The master that executed the most commands (the first of them on a tie). */
        public int busiestMaster() {
            int busiest = 0;
            for (int i = 1; i < masters.size(); i++) {
                if (masters.get(i).commandCount() > masters.get(busiest).commandCount()) {
                    busiest = i;
                }
            }
            return busiest;
        }

        /** Commands and round trips per master, e.g. {@code [{get=49} in 49, {get=50} in 50, {get=49} in 49]}. */
        public String perMaster() {
            return masters.stream().map(usage -> usage.commands() + " in " + usage.roundTrips()).toList().toString();
        }
    }

    public Snapshot snapshot() {
        return new Snapshot(masters.stream().map(RedisCommandStats::snapshot).toList());
    }

    /** The commands executed and the round trips served, over all masters, while {@code action} ran. */
    public Usage usage(Runnable action) {
        Snapshot before = snapshot();
        action.run();
        return usage(before, snapshot());
    }

    public static Usage usage(Snapshot before, Snapshot after) {
        List<RedisCommandStats.Usage> each = new ArrayList<>();
        Map<String, Long> commands = new TreeMap<>();
        Long roundTrips = 0L;
        for (int i = 0; i < before.masters().size(); i++) {
            RedisCommandStats.Usage usage = RedisCommandStats.usage(before.masters().get(i), after.masters().get(i));
            each.add(usage);
            usage.commands().forEach((command, calls) -> commands.merge(command, calls, Long::sum));
            roundTrips = (roundTrips == null || usage.roundTrips() == null) ? null : roundTrips + usage.roundTrips();
        }
        return new Usage(commands, roundTrips, List.copyOf(each));
    }

    /** Every command every master has executed so far, summed, own calls included: for checks that something never ran. */
    public Map<String, Long> everything() {
        Map<String, Long> all = new TreeMap<>();
        masters.forEach(stats -> stats.everything().forEach((command, calls) -> all.merge(command, calls, Long::sum)));
        return all;
    }

    /** The stats of one master by itself. */
    public RedisCommandStats master(int index) {
        return masters.get(index);
    }

    @Override
    public void close() {
        masters.forEach(RedisCommandStats::close);
    }
}
