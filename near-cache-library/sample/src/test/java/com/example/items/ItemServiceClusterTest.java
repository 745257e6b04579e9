package com.example.items;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import dev.colorbench.redis.nearcache.NearCacheManager;
import dev.colorbench.redis.nearcache.NearCacheTracking;
import io.lettuce.core.MigrateArgs;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.data.redis.serializer.JdkSerializationRedisSerializer;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static com.example.items.Waits.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's service on a Redis Cluster, whose nodes REDIS_CLUSTER names ({@code host:port,...}; ci.sh starts three masters
 * with a replica each), while another writer writes an item every 10 ms and this instance reads it through {@code @Cacheable}
 * every millisecond: across a failover of the item's master, and across the move of its slot to another master, with writes
 * during the migration. No read that began more than the README's bound for a change of masters after a write's reply gives
 * an older value: {@code topology-refresh} and a {@code CLUSTER NODES} round trip, 1 s with the default settings.
 */
@SpringBootTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ItemServiceClusterTest {

    /** The README's bound for a change of masters with the defaults, and 500 ms for the test's threads on a busy machine. */
    private static final Duration BOUND = Duration.ofMillis(1500);

    private static final String ID = "busy";

    private static final byte[] KEY = ("items::" + ID).getBytes(StandardCharsets.UTF_8);

    private static RedisClusterClient client;

    /** Another writer, following the item's slot wherever it goes, and the operator's commands to single nodes. */
    private static StatefulRedisClusterConnection<byte[], byte[]> other;

    @Autowired
    private ItemService items;

    @Autowired
    private NearCacheTracking tracking;

    @Autowired
    private NearCacheManager cacheManager;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.cluster.nodes", ItemServiceClusterTest::clusterNodes);
    }

    private static String clusterNodes() {
        String nodes = System.getenv("REDIS_CLUSTER");
        if (nodes == null || nodes.isBlank()) {
            // failed, not skipped: a green build must have run these on a cluster
            throw new IllegalStateException("Set REDIS_CLUSTER to host:port,... of a Redis Cluster whose masters have a replica each, which these"
                    + " tests may fail over and reshard: near-cache-library/sample/ci.sh starts one");
        }
        return nodes;
    }

    @BeforeAll
    static void connect() {
        client = RedisClusterClient.create(Arrays.stream(clusterNodes().split(",")).map(node -> RedisURI.create("redis://" + node)).toList());
        client.setOptions(ClusterClientOptions.builder()
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder().enableAllAdaptiveRefreshTriggers()
                        .enablePeriodicRefresh(Duration.ofMillis(500)).build())
                .timeoutOptions(TimeoutOptions.enabled(Duration.ofSeconds(1))).build());
        other = client.connect(ByteArrayCodec.INSTANCE);
    }

    @AfterAll
    static void disconnect() {
        other.close();
        client.shutdown();
    }

    @BeforeEach
    void warm() throws InterruptedException {
        await(tracking::isActive, Duration.ofSeconds(30), "tracking on every master");
        long invalidations = tracking.invalidations();
        items.save(new Item(ID, "w0"));
        await(() -> tracking.invalidations() > invalidations, Duration.ofSeconds(5), "the save's invalidation");
        await(() -> new Item(ID, "w0").equals(items.find(ID)) && inCopy(), Duration.ofSeconds(10), "the item in the copy");
    }

    @Test
    @Order(1)
    void noReadIsStalerThanTheBoundAcrossAFailoverWithWritesDuringIt() throws Exception {
        try (Load load = load()) {
            RedisClusterNode master = owner();
            RedisClusterNode replica = client.getPartitions().stream().filter(node -> master.getNodeId().equals(node.getSlaveOf())).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no replica of " + master.getUri()));
            // as an operator would: the replica takes over once it has every write, the master pausing its writers meanwhile
            RedisCommands<byte[], byte[]> promoted = other.getConnection(replica.getNodeId()).sync();
            promoted.clusterFailover(false);
            await(() -> promoted.info("replication").contains("role:master"), Duration.ofSeconds(30), "the replica taking over");
            Thread.sleep(3000); // writes and reads go on after the change, for more than one topology check
            load.assertNoneStaleBeyond(BOUND, "a failover of " + master.getUri() + " to " + replica.getUri(), 0.1);
        }
    }

    @Test
    @Order(2)
    void noReadIsStalerThanTheBoundAcrossASlotMoveWithWritesDuringTheMigration() throws Exception {
        try (Load load = load()) {
            int slot = SlotHash.getSlot(KEY);
            RedisClusterNode source = owner();
            RedisClusterNode target = client.getPartitions().stream()
                    .filter(node -> node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.getNodeId().equals(source.getNodeId())).findFirst().orElseThrow();
            RedisCommands<byte[], byte[]> from = other.getConnection(source.getNodeId()).sync();
            RedisCommands<byte[], byte[]> to = other.getConnection(target.getNodeId()).sync();
            // as redis-cli --cluster reshard does: importing, migrating, the keys over, then the new owner told to every master
            to.clusterSetSlotImporting(slot, source.getNodeId());
            from.clusterSetSlotMigrating(slot, target.getNodeId());
            List<byte[]> keys = from.clusterGetKeysInSlot(slot, 1000);
            from.migrate(target.getUri().getHost(), target.getUri().getPort(), 0, 5000, MigrateArgs.Builder.keys(keys));
            Thread.sleep(1000); // the key on the target, the slot still the source's: writes and reads meanwhile go there through ASK
            to.clusterSetSlotNode(slot, target.getNodeId());
            from.clusterSetSlotNode(slot, target.getNodeId());
            for (RedisClusterNode node : client.getPartitions()) {
                if (node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.getNodeId().equals(source.getNodeId()) && !node.getNodeId().equals(target.getNodeId())) {
                    other.getConnection(node.getNodeId()).sync().clusterSetSlotNode(slot, target.getNodeId());
                }
            }
            Thread.sleep(3000);
            load.assertNoneStaleBeyond(BOUND, "the move of slot " + slot + " from " + source.getUri() + " to " + target.getUri(), 0.1);
        }
    }

    private static RedisClusterNode owner() {
        client.refreshPartitions();
        return client.getPartitions().getMasterBySlot(SlotHash.getSlot(KEY));
    }

    /** Another writer on the item's key (the bytes {@code @CachePut} would write), and a reader through the service. */
    private Load load() {
        JdkSerializationRedisSerializer serializer = new JdkSerializationRedisSerializer();
        return new Load(n -> other.sync().set(KEY, serializer.serialize(new Item(ID, "w" + n))), () -> items.find(ID).name());
    }

    private boolean inCopy() {
        return cacheManager.getNearCache("items").nearCache().getIfPresent("items::" + ID) != null;
    }
}
