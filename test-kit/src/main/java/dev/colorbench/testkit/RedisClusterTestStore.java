package dev.colorbench.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link TestStore#redisCluster()}: the shared {@link TestRedisCluster}, every master's commands counted by
 * {@link ClusterCommandStats} and summed. Someone else's data is one key on each master (each put where
 * its slot lives, over a plain connection to that master), so that every node has some to lose; a master
 * that was stopped comes back empty, and {@link #replant} puts its key back, since that loss is the
 * restart's and not the module's.
 */
final class RedisClusterTestStore implements TestStore {

    private static final String FOREIGN_VALUE = "must survive every test";

    private final List<String> foreignKeys = new ArrayList<>();

    private final List<RedisClient> clients = new ArrayList<>();

    private final List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();

    private EmbeddedRedisCluster cluster;

    private ClusterCommandStats stats;

    @Override
    public void open() {
        cluster = TestRedisCluster.get();
        stats = cluster.stats();
        String prefix = "someone-else:" + UUID.randomUUID() + ":";
        for (int master = 0; master < EmbeddedRedisCluster.MASTERS; master++) {
            RedisClient client = RedisClient.create(cluster.masterUrl(master));
            clients.add(client);
            connections.add(client.connect());
            int tag = 0;
            while (cluster.masterOf(prefix + "{" + tag + "}") != master) {
                tag++;
            }
            foreignKeys.add(prefix + "{" + tag + "}");
            replant(master);
        }
    }

    /** The cluster the store counts on. */
    EmbeddedRedisCluster cluster() {
        return cluster;
    }

    /** The per-master counters. */
    ClusterCommandStats stats() {
        return stats;
    }

    /** Puts someone else's key back on a master that came back empty. */
    void replant(int master) {
        connections.get(master).sync().set(foreignKeys.get(master), FOREIGN_VALUE);
    }

    @Override
    public Work during(Runnable action) {
        ClusterCommandStats.Usage usage = stats.usage(action);
        return new Work(usage.commands(), usage.roundTrips());
    }

    /** Keys on all masters together. */
    @Override
    public long footprint() {
        return connections.stream().mapToLong(connection -> connection.sync().dbsize()).sum();
    }

    @Override
    public void assertOthersDataIntactAndNothingWideRan() {
        for (int master = 0; master < foreignKeys.size(); master++) {
            assertThat(connections.get(master).sync().get(foreignKeys.get(master))).as("someone else's key on master %d", master)
                    .isEqualTo(FOREIGN_VALUE);
        }
        assertThat(stats.everything()).doesNotContainKeys("flushall", "flushdb", "keys", "scan");
    }

    @Override
    public void close() {
        try {
            for (int master = 0; master < connections.size(); master++) {
                connections.get(master).sync().del(foreignKeys.get(master));
                connections.get(master).close();
            }
            if (stats != null) {
                stats.close();
            }
        }
        finally {
            clients.forEach(RedisClient::shutdown);
        }
    }
}
