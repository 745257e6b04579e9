package dev.colorbench.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.ClusterPartitionParser;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Resharding a cluster with replicas: a slot moves with its keys, a client writing through the move loses
 * nothing, and a fourth master joins empty and takes a slot. After each, every node, replicas included, names
 * the same owner.
 */
@TestInstance(Lifecycle.PER_CLASS)
class EmbeddedRedisClusterReshardingTest {

    private EmbeddedRedisCluster cluster;

    @BeforeAll
    void start() {
        cluster = EmbeddedRedisCluster.startWithReplicas();
    }

    @AfterAll
    void close() {
        cluster.close();
    }

    @Test
    void aMovedSlotTakesItsKeysAndEveryNodeNamesItsNewOwner() {
        String tag = tagOn(0);
        int slot = SlotHash.getSlot(tag);
        List<String> keys = new ArrayList<>();
        try (Node onMaster = new Node(cluster.masterUrl(0))) {
            for (int i = 0; i < 250; i++) {
                keys.add("colorbench-test:{" + tag + "}:moved:" + i);
                onMaster.redis.sync().set(keys.get(i), "v" + i);
            }
        }

        long started = System.nanoTime();
        cluster.moveSlot(slot, 1);

        System.out.printf("Slot %d moved with %d keys, agreed by every node, in %d ms%n", slot, keys.size(), (System.nanoTime() - started) / 1_000_000);
        assertThat(cluster.masterOfSlot(slot)).isEqualTo(1);
        assertThat(cluster.masterOf(keys.get(0))).isEqualTo(1);
        assertThat(cluster.isHealthy()).isTrue();
        assertEveryNodeNamesTheOwner(slot, cluster.masterUrl(1));
        try (Node from = new Node(cluster.masterUrl(0)); Node to = new Node(cluster.masterUrl(1)); Node toReplica = new Node(cluster.replicaUrl(1))) {
            assertThat(from.redis.sync().clusterCountKeysInSlot(slot)).isZero();
            assertThatThrownBy(() -> from.redis.sync().get(keys.get(0))).hasMessageContaining("MOVED");
            assertThat(to.redis.sync().clusterCountKeysInSlot(slot)).isEqualTo(250);
            // the keys reach the replica as the target's own writes; WAIT would not wait for them, as this connection wrote none
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (toReplica.redis.sync().clusterCountKeysInSlot(slot) < keys.size() && System.nanoTime() < deadline) {
                sleep(10);
            }
            toReplica.redis.sync().readOnly();
            for (int i = 0; i < keys.size(); i++) {
                assertThat(toReplica.redis.sync().get(keys.get(i))).isEqualTo("v" + i);
            }
            to.redis.sync().del(keys.toArray(String[]::new));
        }
        cluster.moveSlot(slot, 0);
        assertThat(cluster.masterOfSlot(slot)).isEqualTo(0);
    }

    /** Lettuce's cluster client follows the move's {@code ASK} and {@code MOVED}: every write it was told succeeded is there after. */
    @Test
    void aClientWritingThroughTheMoveLosesNothing() throws Exception {
        String tag = tagOn(2);
        int slot = SlotHash.getSlot(tag);
        RedisClusterClient client = RedisClusterClient.create(cluster.nodes().stream().map(node -> RedisURI.create("redis://" + node)).toList());
        try (StatefulRedisClusterConnection<String, String> connection = client.connect()) {
            for (int i = 0; i < 100; i++) {
                connection.sync().set("colorbench-test:{" + tag + "}:busy:" + i, "0");
            }
            AtomicBoolean moving = new AtomicBoolean(true);
            CompletableFuture<Map<String, String>> writer = CompletableFuture.supplyAsync(() -> {
                Map<String, String> written = new java.util.HashMap<>();
                for (int round = 1; moving.get() && round < 100_000; round++) {
                    String key = "colorbench-test:{" + tag + "}:busy:" + (round % 120);
                    connection.sync().set(key, String.valueOf(round));
                    written.put(key, String.valueOf(round));
                }
                return written;
            });

            cluster.moveSlot(slot, 0);
            moving.set(false);
            Map<String, String> written = writer.get(30, TimeUnit.SECONDS);

            System.out.printf("A client wrote %d keys of slot %d while it moved%n", written.size(), slot);
            try (Node owner = new Node(cluster.masterUrl(0))) {
                written.forEach((key, value) -> assertThat(owner.redis.sync().get(key)).as(key).isEqualTo(value));
                owner.redis.sync().del(written.keySet().toArray(String[]::new));
            }
        }
        finally {
            client.shutdown();
        }
        cluster.moveSlot(slot, 2);
    }

    @Test
    void anAddedMasterJoinsEmptyAndTakesASlot() {
        long started = System.nanoTime();
        int added = cluster.addMaster();

        System.out.printf("A fourth master joined, known to every node, in %d ms%n", (System.nanoTime() - started) / 1_000_000);
        assertThat(added).isEqualTo(3);
        assertThat(cluster.masters()).isEqualTo(4);
        assertThat(cluster.nodes()).hasSize(4);
        assertThat(cluster.isHealthy()).isTrue();
        for (String url : cluster.masterUrls()) {
            try (Node node = new Node(url)) {
                assertThat(node.redis.sync().clusterInfo()).contains("cluster_state:ok", "cluster_known_nodes:7");
            }
        }
        try (Node node = new Node(cluster.masterUrl(added))) {
            assertThat(node.redis.sync().dbsize()).isZero();
            assertThat(node.redis.sync().clusterInfo()).contains("cluster_slots_ok:16384");
        }

        String tag = tagOn(1);
        int slot = SlotHash.getSlot(tag);
        String key = "colorbench-test:{" + tag + "}:added";
        try (Node onMaster = new Node(cluster.masterUrl(1))) {
            onMaster.redis.sync().set(key, "moved to the new master");
        }
        started = System.nanoTime();
        cluster.moveSlot(slot, added);

        System.out.printf("Slot %d moved to the new master in %d ms%n", slot, (System.nanoTime() - started) / 1_000_000);
        assertThat(cluster.masterOf(key)).isEqualTo(added);
        assertEveryNodeNamesTheOwner(slot, cluster.masterUrl(added));
        try (Node node = new Node(cluster.masterUrl(added))) {
            assertThat(node.redis.sync().get(key)).isEqualTo("moved to the new master");
            node.redis.sync().del(key);
        }
        assertThatIllegalArgumentException().isThrownBy(() -> cluster.moveSlot(slot, 1)).withMessageContaining("last");
        assertThatIllegalStateException().isThrownBy(() -> cluster.failover(added)).withMessageContaining("no replica");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    /** Every node, masters and replicas, names the node at {@code ownerUrl} as the master serving {@code slot}. */
    private void assertEveryNodeNamesTheOwner(int slot, String ownerUrl) {
        List<String> every = new ArrayList<>(cluster.masterUrls());
        for (int master = 0; master < EmbeddedRedisCluster.MASTERS; master++) {
            every.add(cluster.replicaUrl(master));
        }
        int port = RedisURI.create(ownerUrl).getPort();
        for (String url : every) {
            try (Node node = new Node(url)) {
                List<Integer> owners = new ArrayList<>();
                for (RedisClusterNode seen : ClusterPartitionParser.parse(node.redis.sync().clusterNodes())) {
                    if (seen.hasSlot(slot)) {
                        owners.add(seen.getUri().getPort());
                    }
                }
                assertThat(owners).as("the owners of slot %d as %s sees them", slot, url).containsExactly(port);
            }
        }
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
