package dev.colorbench.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.colorbench.core.redis.JsonKeys;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@TestInstance(Lifecycle.PER_CLASS)
class EmbeddedRedisClusterTest {

    private EmbeddedRedisCluster cluster;

    private Path folder;

    @BeforeAll
    void start() {
        cluster = EmbeddedRedisCluster.start();
        folder = cluster.folder();
    }

    @AfterAll
    void closeRemovesEverything() {
        cluster.close();
        assertThat(folder).doesNotExist();
    }

    @Test
    void threeMastersShareAllSlotsAndTheClusterIsOk() {
        assertThat(cluster.isHealthy()).isTrue();
        assertThat(cluster.nodes()).hasSize(3).allSatisfy(node -> assertThat(node).startsWith("127.0.0.1:"));
        assertThat(cluster.clusterNodes()).isEqualTo(String.join(",", cluster.nodes()));
        assertThat(cluster.masterOfSlot(0)).isEqualTo(0);
        assertThat(cluster.masterOfSlot(16383)).isEqualTo(2);
        for (int master = 0; master < 3; master++) {
            try (Node node = new Node(cluster.masterUrl(master))) {
                String slots = node.redis.sync().clusterInfo();
                assertThat(slots).contains("cluster_state:ok", "cluster_slots_ok:16384", "cluster_known_nodes:3");
            }
        }
        assertThat(cluster.masterOf("colors::{v3}::red")).isEqualTo(cluster.masterOfSlot(SlotHash.getSlot("v3")));
    }

    @Test
    void keepsOnlyItsNodesConfOnDisk() throws Exception {
        try (var files = Files.list(folder)) {
            assertThat(files.map(path -> path.getFileName().toString()).toList())
                    .containsExactlyInAnyOrderElementsOf(cluster.nodes().stream().map(node -> "nodes-" + node.split(":")[1] + ".conf").toList());
        }
    }

    /**
     * Lettuce's own cluster API (not Spring Data's) splits an MGET of keys in many slots into one MGET per
     * slot, sent to the masters at once: measured here on every master, for the palette's 148 keys.
     */
    @Test
    void lettucesOwnClusterMgetIsOneMgetPerSlotOnEveryMaster() {
        List<String> keys = JsonKeys.plain().all();
        long slots = keys.stream().map(SlotHash::getSlot).distinct().count();
        RedisClusterClient client = RedisClusterClient.create(cluster.nodes().stream().map(node -> RedisURI.create("redis://" + node)).toList());
        try (StatefulRedisClusterConnection<String, String> connection = client.connect(); ClusterCommandStats stats = cluster.stats()) {
            connection.sync().mset(keys.stream().collect(Collectors.toMap(key -> key, key -> "x")));
            connection.sync().mget(keys.toArray(String[]::new));

            ClusterCommandStats.Usage usage = stats.usage(() -> assertThat(connection.sync().mget(keys.toArray(String[]::new))).hasSize(148));

            System.out.printf("Lettuce's cluster MGET of the %d palette keys (%d slots): %s in %d round trips; per master %s%n",
                    keys.size(), slots, usage.commands(), usage.roundTrips(), usage.perMaster());
            assertThat(usage.commands()).isEqualTo(Map.of("mget", slots));
            assertThat(usage.mastersUsed()).isEqualTo(3);
            connection.sync().del(keys.toArray(String[]::new));
        }
        finally {
            client.shutdown();
        }
    }

    @Test
    void aStoppedMasterComesBackOnItsPortWithItsIdAndSlotsButNoData() {
        int master = 1;
        String key = "colorbench-test:{" + tagOn(master) + "}";
        String id;
        try (Node node = new Node(cluster.masterUrl(master))) {
            id = node.redis.sync().clusterMyId();
            node.redis.sync().set(key, "before");
        }

        cluster.stopMaster(master);
        assertThat(cluster.isRunning(master)).isFalse();
        assertThat(cluster.isHealthy()).isFalse();
        try (Node other = new Node(cluster.masterUrl(0))) {
            assertThat(other.redis.sync().set("colorbench-test:{" + tagOn(0) + "}", "still served")).isEqualTo("OK");
        }
        cluster.startMaster(master);

        assertThat(cluster.isHealthy()).isTrue();
        try (Node node = new Node(cluster.masterUrl(master))) {
            assertThat(node.redis.sync().clusterMyId()).isEqualTo(id);
            assertThat(node.redis.sync().clusterCountKeysInSlot(SlotHash.getSlot(key))).isZero();
            assertThat(node.redis.sync().get(key)).isNull();
        }
        try (Node other = new Node(cluster.masterUrl(0))) {
            other.redis.sync().del("colorbench-test:{" + tagOn(0) + "}");
        }
    }

    @Test
    void aKeyIsRefusedByAMasterThatDoesNotServeItsSlot() {
        try (Node node = new Node(cluster.masterUrl(0))) {
            assertThatThrownBy(() -> node.redis.sync().get("colorbench-test:{" + tagOn(2) + "}")).hasMessageContaining("MOVED");
        }
    }

    private int tagOn(int master) {
        int tag = 0;
        while (cluster.masterOf("{" + tag + "}") != master) {
            tag++;
        }
        return tag;
    }

    /** A plain connection to one master. */
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
