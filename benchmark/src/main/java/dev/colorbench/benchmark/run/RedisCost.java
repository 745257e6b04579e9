package dev.colorbench.benchmark.run;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.colorbench.testkit.ClusterCommandStats;
import dev.colorbench.testkit.RedisCommandStats;

/**
 * What one {@code GET /colors} asks of Redis, seen from outside the module: the commands Redis
 * executed and the round trips it served (its socket reads), both averaged over a number of
 * sequential requests, the measurement's own {@code INFO} calls taken off. On a Redis Cluster, what
 * every master did, summed, and each master's share.
 */
final class RedisCost implements AutoCloseable {

    private final RedisCommandStats server;

    private final ClusterCommandStats cluster;

    private RedisCost(RedisCommandStats server, ClusterCommandStats cluster) {
        this.server = server;
        this.cluster = cluster;
    }

    /** The cost on one Redis server. */
    static RedisCost of(String redisUrl) {
        return new RedisCost(RedisCommandStats.connect(redisUrl), null);
    }

    /** The cost on a Redis Cluster, counted on each of its masters. */
    static RedisCost ofCluster(List<String> masterUrls) {
        return new RedisCost(null, ClusterCommandStats.connect(masterUrls));
    }

    String serverVersion() {
        return server != null ? server.serverVersion() : cluster.master(0).serverVersion();
    }

    /** Runs {@code request} {@code requests} times and returns the average cost of one. */
    Verification.Cost measure(int requests, Runnable request) {
        Runnable all = () -> {
            for (int i = 0; i < requests; i++) {
                request.run();
            }
        };
        if (server != null) {
            return perRequest(server.usage(all), requests, List.of());
        }
        ClusterCommandStats.Usage usage = cluster.usage(all);
        List<Verification.Cost> masters = usage.masters().stream().map(master -> perRequest(master, requests, List.of())).toList();
        return perRequest(new RedisCommandStats.Usage(usage.commands(), usage.roundTrips()), requests, masters);
    }

    private static Verification.Cost perRequest(RedisCommandStats.Usage usage, int requests, List<Verification.Cost> masters) {
        Map<String, Double> perCommand = new TreeMap<>();
        usage.commands().forEach((command, calls) -> perCommand.put(command, (double) calls / requests));
        return new Verification.Cost(perCommand, usage.commandCount() / (double) requests,
                usage.roundTrips() == null ? null : usage.roundTrips() / (double) requests, masters);
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }
}
