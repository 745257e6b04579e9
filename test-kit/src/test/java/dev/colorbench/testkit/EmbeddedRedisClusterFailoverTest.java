package dev.colorbench.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.ClusterPartitionParser;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cluster whose masters each have a replica: every node agrees on who replicates whom, a planned failover
 * loses no write and may go back and forth, and a stopped master's replica takes over within seconds.
 */
@TestInstance(Lifecycle.PER_CLASS)
class EmbeddedRedisClusterFailoverTest {

    private EmbeddedRedisCluster cluster;

    private Path folder;

    @BeforeAll
    void start() {
        long started = System.nanoTime();
        cluster = EmbeddedRedisCluster.startWithReplicas();
        System.out.printf("Three masters and three replicas were ok in %d ms%n", (System.nanoTime() - started) / 1_000_000);
        folder = cluster.folder();
    }

    @AfterAll
    void closeRemovesEverything() {
        cluster.close();
        assertThat(folder).doesNotExist();
    }

    @Test
    void everyNodeAgreesWhoReplicatesWhom() {
        assertThat(cluster.isHealthy()).isTrue();
        assertThat(cluster.masters()).isEqualTo(3);
        List<String> every = new ArrayList<>(cluster.masterUrls());
        for (int master = 0; master < cluster.masters(); master++) {
            every.add(cluster.replicaUrl(master));
        }
        for (String url : every) {
            try (Node node = new Node(url)) {
                assertThat(node.redis.sync().clusterInfo()).contains("cluster_state:ok", "cluster_slots_ok:16384", "cluster_known_nodes:6");
                for (int master = 0; master < cluster.masters(); master++) {
                    RedisClusterNode replica = seenBy(node, cluster.replicaUrl(master));
                    assertThat(replica.getRole().isReplica()).as("%s's replica, as %s sees it", cluster.masterUrl(master), url).isTrue();
                    assertThat(replica.getSlaveOf()).isEqualTo(seenBy(node, cluster.masterUrl(master)).getNodeId());
                }
            }
        }
    }

    /** The replicas copied their masters over the socket: no RDB file beside the nodes' {@code nodes.conf}. */
    @Test
    void keepsOnlyItsNodesConfOnDisk() throws Exception {
        try (var files = Files.list(folder)) {
            assertThat(files.map(path -> path.getFileName().toString()).toList()).hasSize(6).allMatch(name -> name.matches("nodes-\\d+\\.conf"));
        }
    }

    @Test
    void aReplicaServesItsMastersKeysToAConnectionThatAskedToReadFromIt() {
        int master = 2;
        String key = "colorbench-test:{" + tagOn(master) + "}:replica-read";
        try (Node onMaster = new Node(cluster.masterUrl(master)); Node onReplica = new Node(cluster.replicaUrl(master))) {
            onMaster.redis.sync().set(key, "copied");
            onMaster.redis.sync().waitForReplication(1, 5_000);
            onReplica.redis.sync().readOnly();

            assertThat(onReplica.redis.sync().get(key)).isEqualTo("copied");
            onMaster.redis.sync().del(key);
        }
    }

    /**
     * Every write the master acknowledged is on the promoted replica. Back and forth, then over again: the third
     * failover of one node waits until the masters may vote about it again.
     */
    @Test
    void aPlannedFailoverLosesNoWriteAndMayGoBackAndForth() {
        int master = 1;
        String masterUrl = cluster.masterUrl(master);
        String replicaUrl = cluster.replicaUrl(master);
        String tag = tagOn(master);
        List<String> keys = new ArrayList<>();
        try (Node onMaster = new Node(masterUrl)) {
            for (int i = 0; i < 200; i++) {
                keys.add("colorbench-test:{" + tag + "}:planned:" + i);
                onMaster.redis.sync().set(keys.get(i), "v" + i);
            }
        }

        for (int round = 1; round <= 3; round++) {
            long started = System.nanoTime();
            cluster.failover(master);
            System.out.printf("Planned failover %d of master %d agreed by every node in %d ms%n", round, master, (System.nanoTime() - started) / 1_000_000);

            boolean promoted = round % 2 == 1;
            assertThat(cluster.masterUrl(master)).isEqualTo(promoted ? replicaUrl : masterUrl);
            assertThat(cluster.replicaUrl(master)).isEqualTo(promoted ? masterUrl : replicaUrl);
            assertThat(cluster.isHealthy()).isTrue();
            try (Node onMaster = new Node(cluster.masterUrl(master)); Node onReplica = new Node(cluster.replicaUrl(master))) {
                assertThat(onMaster.redis.sync().info("replication")).contains("role:master", "connected_slaves:1");
                assertThat(onReplica.redis.sync().info("replication")).contains("role:slave", "master_link_status:up");
                assertThat(onMaster.redis.sync().clusterCountKeysInSlot(SlotHash.getSlot(keys.get(0)))).isEqualTo(200);
                assertThat(onMaster.redis.sync().get(keys.get(199))).isEqualTo("v199");
            }
        }
        try (Node onMaster = new Node(cluster.masterUrl(master))) {
            onMaster.redis.sync().del(keys.toArray(String[]::new));
        }
    }

    /** The replica takes over after the node timeout; the old master comes back as its replica and copies it. */
    @Test
    void aStoppedMastersReplicaTakesOverWithEveryEarlierWrite() {
        int master = 0;
        String masterUrl = cluster.masterUrl(master);
        String replicaUrl = cluster.replicaUrl(master);
        String key = "colorbench-test:{" + tagOn(master) + "}:unplanned";
        try (Node onMaster = new Node(masterUrl)) {
            onMaster.redis.sync().set(key, "written before the stop");
        }

        Duration takeover = cluster.failoverByStopping(master);

        System.out.printf("Master %d stopped: its replica took over, agreed by every running node, in %d ms%n", master, takeover.toMillis());
        assertThat(takeover).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        assertThat(cluster.masterUrl(master)).isEqualTo(replicaUrl);
        assertThat(cluster.isRunning(master)).isTrue();
        assertThat(cluster.isHealthy()).as("while the old master is stopped").isFalse();
        try (Node onMaster = new Node(replicaUrl)) {
            assertThat(onMaster.redis.sync().info("replication")).contains("role:master");
            assertThat(onMaster.redis.sync().get(key)).isEqualTo("written before the stop");
        }

        long started = System.nanoTime();
        cluster.startMaster(master);

        System.out.printf("The old master came back as the replica, in sync, in %d ms%n", (System.nanoTime() - started) / 1_000_000);
        assertThat(cluster.healthProblems()).as("right after startMaster waited for a healthy cluster").isEmpty();
        assertThat(cluster.replicaUrl(master)).isEqualTo(masterUrl);
        try (Node onReplica = new Node(masterUrl)) {
            assertThat(onReplica.redis.sync().info("replication")).contains("role:slave", "master_link_status:up");
            onReplica.redis.sync().readOnly();
            assertThat(onReplica.redis.sync().get(key)).isEqualTo("written before the stop");
        }
        try (Node onMaster = new Node(replicaUrl)) {
            onMaster.redis.sync().del(key);
        }
    }

    /** How {@code node} sees the node at {@code url}. */
    private static RedisClusterNode seenBy(Node node, String url) {
        int port = RedisURI.create(url).getPort();
        for (RedisClusterNode seen : ClusterPartitionParser.parse(node.redis.sync().clusterNodes())) {
            if (seen.getUri().getPort() == port) {
                return seen;
            }
        }
        throw new AssertionError(url + " is unknown to " + node.client);
    }

    private String tagOn(int master) {
        int tag = 0;
        while (cluster.masterOf("{" + tag + "}") != master) {
            tag++;
        }
        return String.valueOf(tag);
    }

    /** A plain connection to one node. */
    private static final class Node implements AutoCloseable {

        final RedisClient client;

        final StatefulRedisConnection<String, String> redis;

        Node(String url) {
            client = RedisClient.create(url);
            redis = client.connect();
        }

        @Override
        public void close() {
            redis.close();
            client.shutdown();
        }
    }
}
