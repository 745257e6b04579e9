package dev.colorbench.redis.nearcache;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import dev.colorbench.testkit.EmbeddedRedisCluster;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.internal.HostAndPort;
import io.lettuce.core.resource.MappingSocketAddressResolver;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Delivery proven on a Redis Cluster, master by master: an embedded cluster of three masters, the application's every
 * connection to the first of them through a {@link RespProxy} (Lettuce's socket address resolver maps that master's port to
 * the proxy's), and another writer writing straight to the masters.
 * <ul>
 * <li>each master's canary is a key in a slot of its own, proven on its tracking connection;</li>
 * <li>the proxy relays every reply but drops push frames: a change on that master is served within {@link #BOUND} of the
 * write's reply, while the other two masters deliver as ever;</li>
 * <li>the slot of a master's canary moves to another master: the canary is placed again, in a slot the master still owns,
 * and the copies answer again.</li>
 * </ul>
 * Without a canary on a cluster, the second served the old value for the whole time-to-live.
 */
@SpringBootTest(classes = { StringsApplication.class, NearCacheClusterDeliveryTest.ThroughTheProxy.class }, properties = {
        "redis.near-cache.prefixes=" + NearCacheClusterDeliveryTest.PREFIX,
        "spring.data.redis.timeout=1s",
        "spring.data.redis.connect-timeout=1s" })
@DirtiesContext
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NearCacheClusterDeliveryTest {

    static final String PREFIX = "delivered::";

    /** Heartbeat + heartbeat time-out, 1.25 s, and 250 ms for the threads on a busy machine, as on a standalone Redis. */
    static final Duration BOUND = Duration.ofMillis(1500);

    /** A topology refresh (1 s), a CLUSTER NODES round trip, a heartbeat to prove the new canary (1 s), and 500 ms for a loaded machine. */
    static final Duration PLACED_AGAIN = Duration.ofMillis(2500);

    private static final List<String> KEYS = IntStream.range(0, 30).mapToObj(i -> PREFIX + "k" + i).toList();

    private static final EmbeddedRedisCluster CLUSTER = EmbeddedRedisCluster.start();

    private static final int PROXIED = 0;

    private static final RespProxy PATH = RespProxy.start(port(CLUSTER.masterUrl(PROXIED)));

    @Autowired
    private NearCacheTracking tracking;

    @Autowired
    private NearCache<String> cache;

    /** The application's Lettuce resources: its connections to the proxied master, the tracking one among them, go through the proxy. */
    @TestConfiguration(proxyBeanMethods = false)
    static class ThroughTheProxy {

        @Bean
        ClientResourcesBuilderCustomizer throughTheProxy() {
            int proxied = port(CLUSTER.masterUrl(PROXIED));
            java.util.function.Function<HostAndPort, HostAndPort> mapping = address -> (address.getPort() == proxied)
                    ? HostAndPort.of("127.0.0.1", PATH.port()) : address;
            return builder -> builder.socketAddressResolver(MappingSocketAddressResolver.create(mapping));
        }
    }

    @DynamicPropertySource
    static void clusterNodes(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.cluster.nodes", () -> String.join(",", CLUSTER.nodes()));
    }

    @AfterAll
    static void stopCluster() {
        try {
            PATH.close();
        }
        finally {
            CLUSTER.close();
        }
    }

    @BeforeEach
    void everyKeyHeld() {
        for (String key : KEYS) {
            write(key, key + "-v0");
        }
    }

    @Test
    @Order(1)
    void eachMasterProvesACanaryInASlotOfItsOwn() throws InterruptedException {
        awaitWarm();
        Map<String, String> canaries = tracking.canaryKeys();
        assertThat(canaries).as("a canary for each master").hasSize(CLUSTER.masters()).doesNotContainValue(null);
        for (int master = 0; master < CLUSTER.masters(); master++) {
            String key = canaries.get(name(master));
            assertThat(key).as("master %d's canary", master).startsWith(tracking.canaryKey());
            assertThat(CLUSTER.masterOfSlot(SlotHash.getSlot(key))).as("the master that owns %s's slot", key).isEqualTo(master);
        }
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        new NearCacheMetrics(tracking).bindTo(meters);
        for (int master = 0; master < CLUSTER.masters(); master++) {
            assertThat(meters.get("near.cache.server.canary").tag("server", name(master)).functionTimer().count())
                    .as("canaries proven on master %d", master).isPositive();
        }
    }

    @Test
    @Order(2)
    void aChangeOnAMasterWhosePushesAreDroppedIsServedWithinTheBound() throws InterruptedException {
        awaitWarm();
        long undelivered = tracking.undelivered();
        PATH.dropPushes(true);
        try {
            String key = keyOn(PROXIED);
            long written = write(key, key + "-while-pushes-dropped");
            Duration served = awaitServed(key, key + "-while-pushes-dropped", written, BOUND);
            System.out.printf("Near cache, cluster, push frames from one master dropped on the way: another writer's change served to a read"
                    + " started %.2f ms after the write (bound %s)%n", served.toNanos() / 1e6, BOUND);
            assertThat(PATH.dropped()).as("push frames the proxy dropped").isPositive();
            assertThat(tracking.undelivered()).as("copies dropped for an undelivered canary").isGreaterThan(undelivered);
            assertThat(tracking.lastDrop()).as("the last drop's cause").contains("canary").contains(name(PROXIED));
        }
        finally {
            PATH.dropPushes(false);
        }
        awaitWarm();
        String other = keyOn(1);
        assertThat(awaitServed(other, other + "-after", write(other, other + "-after"), BOUND)).as("a change on another master, pushes relayed again")
                .isLessThan(BOUND);
    }

    @Test
    @Order(3)
    void aCanaryWhoseSlotMovesIsPlacedAgainInASlotItsMasterOwns() throws InterruptedException {
        awaitWarm();
        int master = 1;
        String before = tracking.canaryKeys().get(name(master));
        int slot = SlotHash.getSlot(before);
        long moved;
        CLUSTER.moveSlot(slot, 2);
        moved = System.nanoTime();
        String after;
        while (true) {
            after = tracking.canaryKeys().get(name(master));
            if (after != null && !after.equals(before) && Boolean.TRUE.equals(tracking.servers().get(name(master)))) {
                break;
            }
            if (System.nanoTime() - moved > PLACED_AGAIN.toNanos()) {
                fail("master %d's canary %s not placed again and proven %s after its slot %d moved (now %s, servers %s)", master, before,
                        PLACED_AGAIN, slot, after, tracking.servers());
            }
            Thread.sleep(5);
        }
        System.out.printf("Near cache, cluster: a canary's slot moved to another master; placed again in a slot its master owns and proven"
                + " %d ms after the move%n", (System.nanoTime() - moved) / 1_000_000);
        assertThat(CLUSTER.masterOfSlot(SlotHash.getSlot(after))).as("the master that owns the new canary's slot").isEqualTo(master);
        awaitWarm();
        String key = keyOn(master);
        assertThat(awaitServed(key, key + "-after-the-move", write(key, key + "-after-the-move"), BOUND))
                .as("a change on the master whose canary moved").isLessThan(BOUND);
    }

    private Duration awaitServed(String key, String expected, long written, Duration bound) {
        return new Reads(cache, tracking).awaitServed(key, expected, written, bound);
    }

    private void awaitWarm() throws InterruptedException {
        new Reads(cache, tracking).awaitWarm(KEYS);
    }

    private static String keyOn(int master) {
        return KEYS.stream().filter(key -> CLUSTER.masterOf(key) == master).findFirst().orElseThrow();
    }

    /** Writes {@code key} straight to the master that owns it, past the proxy, as another application would; the reply's instant. */
    private static long write(String key, String value) {
        return CLUSTER.setOnOwner(key, value);
    }

    /** What the library calls master {@code master}: {@code master host:port}, the address the cluster gives it. */
    private static String name(int master) {
        java.net.URI uri = java.net.URI.create(CLUSTER.masterUrl(master));
        return "master " + uri.getHost() + ":" + uri.getPort();
    }

    private static int port(String url) {
        return java.net.URI.create(url).getPort();
    }
}
