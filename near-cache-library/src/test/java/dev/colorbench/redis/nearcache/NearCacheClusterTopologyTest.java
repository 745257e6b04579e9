package dev.colorbench.redis.nearcache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import dev.colorbench.testkit.EmbeddedRedisCluster;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.dao.DataAccessException;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The near cache across a change of a Redis Cluster's masters, on an embedded cluster of three masters
 * with a replica each. The application sets no Lettuce topology refresh: keeping the topology current is
 * the library's job. Another writer is a plain connection to the master that owns the key.
 * <ul>
 * <li>a failover on request, then one by stopping a master: the copy tracks the promoted master, and
 * another writer's change on it is served within {@link #SETTLED};</li>
 * <li>a resharding onto a master the application has never seen (added, then given a slot): a key read
 * and kept before the move, changed on its new master right after, is served within {@link #MOVED} of
 * the change, the library's {@code topology-refresh} and the time to track the new master;</li>
 * <li>a slot in migration to a master that owns no slot yet: a key read through {@code ASK} from it and changed there is
 * served within {@link #MOVED} too;</li>
 * <li>a master given its first slot: the copies do not answer from its canary's placement until that canary is proven;</li>
 * <li>a master drained of its last slot and kept a master: no canary, and the copies answer on past its last proof's lease.</li>
 * </ul>
 * The bound is measured from the write's reply to the first read that shows it, and printed.
 */
@SpringBootTest(classes = StringsApplication.class, properties = {
        "redis.near-cache.prefixes=" + NearCacheClusterTopologyTest.PREFIX,
        "spring.data.redis.timeout=1s",
        "spring.data.redis.connect-timeout=1s" })
@DirtiesContext
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NearCacheClusterTopologyTest {

    static final String PREFIX = "topo::";

    /** Another writer's change, once the masters are tracked. */
    static final Duration SETTLED = Duration.ofSeconds(1);

    /**
     * The README's bound for a change of masters, {@code topology-refresh} (1 s) and a {@code CLUSTER NODES} round trip, and 500 ms
     * for a loaded machine: how stale a read may be while another writer writes through a failover.
     */
    static final Duration FAILED_OVER = Duration.ofMillis(1500);

    /** Topology refresh (1 s), a CLUSTER NODES round trip, a new tracking connection's handshake, and 500 ms for a loaded machine. */
    static final Duration MOVED = Duration.ofMillis(2500);

    private static final List<String> KEYS = IntStream.range(0, 30).mapToObj(i -> PREFIX + "k" + i).toList();

    private static final EmbeddedRedisCluster CLUSTER = EmbeddedRedisCluster.startWithReplicas();

    @Autowired
    private NearCacheTracking tracking;

    @Autowired
    private NearCache<String> cache;

    @DynamicPropertySource
    static void clusterNodes(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.cluster.nodes", () -> String.join(",", CLUSTER.nodes()));
    }

    @AfterAll
    static void stopCluster() {
        CLUSTER.close();
    }

    @BeforeEach
    void everyKeyHeld() {
        for (String key : KEYS) {
            write(key, key + "-v0");
        }
    }

    @Test
    @Order(1)
    void aFailoverOnRequestEndsWithThePromotedMasterTracked() throws InterruptedException {
        awaitWarm();
        String key = keyOn(0);
        long changes = tracking.topologyChanges();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        new NearCacheMetrics(tracking).bindTo(meters);

        long started;
        long failedOver;
        Duration noticed;
        Duration warm;
        try (Load load = new Load(key)) {
            started = System.nanoTime();
            CLUSTER.failover(0);
            failedOver = System.nanoTime();
            noticed = awaitTracked("master " + address(CLUSTER.masterUrl(0)));
            Thread.sleep(2000); // writes and reads go on past the change, for more than one topology check
            load.assertNoneStaleBeyond(FAILED_OVER, "a failover on request");
        }
        warm = awaitWarm();
        System.out.printf("Near cache, cluster: failover on request took %d ms; the promoted master tracked %d ms after it, the copy warm"
                + " %d ms later%n", (failedOver - started) / 1_000_000, noticed.toMillis(), warm.toMillis());

        assertThat(tracking.topologyChanges()).as("changes of the masters seen").isGreaterThan(changes);
        assertThat(meters.find("near.cache.server.tracking").gauges()).as("a meter for each master tracked now, the former one's gone")
                .extracting(gauge -> gauge.getId().getTag("server")).containsExactlyInAnyOrderElementsOf(tracking.servers().keySet());
        assertServedWithin(key, key + "-after-failover", SETTLED);
    }

    @Test
    @Order(2)
    void aFailoverByStoppingAMasterEndsWithThePromotedMasterTracked() throws InterruptedException {
        awaitWarm();
        String key = keyOn(1);

        Duration failover;
        Duration noticed;
        Duration warm;
        try (Load load = new Load(key)) {
            failover = CLUSTER.failoverByStopping(1);
            noticed = awaitTracked("master " + address(CLUSTER.masterUrl(1)));
            Thread.sleep(2000);
            load.assertNoneStaleBeyond(FAILED_OVER, "a failover by stopping a master");
        }
        warm = awaitWarm();
        System.out.printf("Near cache, cluster: failover by stopping a master took %d ms; the promoted master tracked %d ms after it, the"
                + " copy warm %d ms later%n", failover.toMillis(), noticed.toMillis(), warm.toMillis());

        assertThat(tracking.servers()).as("the promoted master, tracked, and not the stopped one")
                .containsKey("master " + address(CLUSTER.masterUrl(1))).doesNotContainKey("master " + address(CLUSTER.replicaUrl(1)));
        assertServedWithin(key, key + "-after-crash", SETTLED);
        CLUSTER.startMaster(1);
    }

    /** The case that stays stale for good without the library's own topology check: a key moved to a master nobody told the application of. */
    @Test
    @Order(3)
    void aKeyMovedToANewMasterIsServedWithinTheBound() throws InterruptedException {
        awaitWarm();
        String key = keyOn(2);
        assertThat(cache.getAll(List.of(key)).values()).containsExactly(key + "-v0");
        int added = CLUSTER.addMaster();

        CLUSTER.moveSlot(SlotHash.getSlot(key), added);
        // the move's MIGRATE deleted the key on its old master, which reported it: read it again, from the new master, through a redirect
        assertThat(cache.getAll(List.of(key)).values()).containsExactly(key + "-v0");
        String after = key + "-on-the-new-master";
        long written = write(key, after);

        long served = awaitServed(key, after, written, MOVED);
        System.out.printf("Near cache, cluster: a key moved to a new master, read from it, then changed there, served %.2f ms after the write"
                + " (bound %s)%n", served / 1e6, MOVED);
        awaitTracked("master " + address(CLUSTER.masterUrl(added)));
        awaitWarm();
        assertServedWithin(key, key + "-again", SETTLED);
    }

    /**
     * Checks of the masters that keep failing stop the copies, since a change of the masters would go unseen: CLUSTER is denied
     * to the application's user on every master (an ACL of this test's own cluster), then allowed again. Before, a failed check
     * was dropped silently and the copies answered on.
     */
    @Test
    @Order(4)
    void checksOfTheMastersThatKeepFailingStopTheCopiesUntilOneSucceeds() throws InterruptedException {
        awaitWarm();
        long failures = tracking.topologyCheckFailures();
        // the failures tolerated, one refresh each, one more for the check under way, and a second for a loaded machine
        Duration bound = Duration.ofSeconds(NearCacheTracking.TOPOLOGY_FAILURES_TOLERATED + 2);
        long denied = System.nanoTime();
        everyMaster("-cluster");
        try {
            while (tracking.isActive()) {
                if (System.nanoTime() - denied > bound.toNanos()) {
                    fail("the copies still answer %s after CLUSTER was denied (%d checks failed)", bound, tracking.topologyCheckFailures() - failures);
                }
                Thread.sleep(5);
            }
            System.out.printf("Near cache, cluster: the copies stopped answering %d ms after the checks of the masters began to fail (bound %s)%n",
                    (System.nanoTime() - denied) / 1_000_000, bound);
            assertThat(tracking.topologyCheckFailures() - failures).as("failed checks counted").isGreaterThanOrEqualTo(NearCacheTracking.TOPOLOGY_FAILURES_TOLERATED);
        }
        finally {
            everyMaster("+@all");
        }
        Duration warm = awaitWarm();
        System.out.printf("Near cache, cluster: once a check succeeded again, the copy warm %d ms later%n", warm.toMillis());
    }

    /**
     * A slot in migration: a key already moved is read through {@code ASK} from a master that owns no slot yet, and changed
     * there by another writer before the slot is its own. The change must be served within {@link #MOVED}. Before, a master
     * that owned no slot was not tracked, and the key read from it stayed stale for the whole time-to-live.
     */
    @Test
    @Order(5)
    void aKeyReadThroughAskDuringAMigrationIsServedWithinTheBound() throws InterruptedException {
        awaitWarm();
        String key = keyOn(0);
        int slot = SlotHash.getSlot(key);
        int added = CLUSTER.addMaster();
        awaitWarm();
        String before = cache.getAll(List.of(key)).values().get(0);
        CLUSTER.beginMove(slot, added);
        try {
            // the key is on the importing master now: the source answers ASK, and Lettuce reads it there
            assertThat(cache.getAll(List.of(key)).values()).as("read through ASK").containsExactly(before);
            String after = key + "-during-the-migration";
            long written;
            RedisClient client = RedisClient.create(CLUSTER.masterUrl(added));
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                connection.sync().asking();
                connection.sync().set(key, after);
                written = System.nanoTime();
            }
            finally {
                client.shutdown();
            }
            long served = awaitServed(key, after, written, MOVED);
            System.out.printf("Near cache, cluster: a key read through ASK during a migration, changed on the importing master, served %.2f ms"
                    + " after the write (bound %s)%n", served / 1e6, MOVED);
        }
        finally {
            CLUSTER.endMove(slot, added);
        }
        awaitWarm();
        assertServedWithin(key, key + "-after-the-migration", SETTLED);
    }

    /**
     * A master that owns no slot has no canary, its delivery assumed. Given its first slot, it gets one, and the copies do not
     * answer from then until that canary is proven. Before, they answered on until the next heartbeat.
     */
    @Test
    @Order(6)
    void aMasterGivenItsFirstSlotHasTheCopiesWaitForItsCanary() throws InterruptedException {
        int added = CLUSTER.addMaster();
        String master = "master " + address(CLUSTER.masterUrl(added));
        awaitTracked(master);
        awaitWarm();
        assertThat(tracking.canaryKeys()).as("a master that owns no slot has no canary").containsEntry(master, null);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        new NearCacheMetrics(tracking).bindTo(meters);
        double proofs = canariesProven(meters, master);

        CLUSTER.moveSlot(SlotHash.getSlot(keyOn(0)), added);
        long moved = System.nanoTime();
        while (true) {
            boolean placed;
            boolean answering;
            double proven;
            // under the tracking's own lock, where a canary is placed: the three are seen as one
            synchronized (tracking) {
                placed = tracking.canaryKeys().get(master) != null;
                answering = tracking.isActive();
                proven = canariesProven(meters, master);
            }
            if (placed) {
                assertThat(!answering || proven > proofs).as("the copies answer while the first canary of %s is not yet proven", master).isTrue();
                break;
            }
            if (System.nanoTime() - moved > MOVED.toNanos()) {
                fail("no canary placed on %s %s after it was given a slot (canaries %s)", master, MOVED, tracking.canaryKeys());
            }
            Thread.sleep(1);
        }
        Duration warm = awaitWarm();
        System.out.printf("Near cache, cluster: a master given its first slot proved its canary; the copy warm %d ms after it was placed%n",
                warm.toMillis());
    }

    /**
     * A master drained of its last slot, kept a master as an operator who drains it before removing it has it: it has no canary
     * again, and the copies answer on past its last proof's lease. Before, that lease ran out with no canary to renew it, and the
     * copies stopped answering for as long as the master stayed in the cluster. A server that has no
     * {@code cluster-allow-replica-migration} makes an emptied master a replica instead: there the case does not arise.
     */
    @Test
    @Order(7)
    void aMasterDrainedOfItsSlotsLeavesTheCopiesAnswering() throws InterruptedException {
        int added = CLUSTER.addMaster();
        assumeTrue(CLUSTER.keepEmptyMaster(added), "this server makes an emptied master a replica");
        String master = "master " + address(CLUSTER.masterUrl(added));
        int slot = SlotHash.getSlot(keyOn(1));
        int owner = CLUSTER.masterOfSlot(slot);
        CLUSTER.moveSlot(slot, added);
        awaitTracked(master);
        long given = System.nanoTime();
        // a check may have found the master before its slot: the next one places its canary
        while (tracking.canaryKeys().get(master) == null) {
            if (System.nanoTime() - given > MOVED.toNanos()) {
                fail("no canary placed on %s %s after it was given a slot (%s)", master, MOVED, tracking.canaryKeys());
            }
            Thread.sleep(5);
        }
        awaitWarm();

        CLUSTER.moveSlot(slot, owner);
        long drained = System.nanoTime();
        while (tracking.canaryKeys().get(master) != null) {
            if (System.nanoTime() - drained > MOVED.toNanos()) {
                fail("%s still has a canary %s after it was drained of its slot (%s)", master, MOVED, tracking.canaryKeys());
            }
            Thread.sleep(5);
        }
        // past the last proof's lease (heartbeat and its time-out, 1.25 s), with a margin
        Thread.sleep(2500);
        Duration warm = awaitWarm();
        assertThat(tracking.servers()).as("still a master, tracked").containsEntry(master, true);
        System.out.printf("Near cache, cluster: the copy answers 2.5 s after a master was drained of its slots (warm %d ms after the wait)%n",
                warm.toMillis());
    }

    private static double canariesProven(MeterRegistry meters, String server) {
        FunctionTimer timer = meters.find("near.cache.server.canary").tag("server", server).functionTimer();
        return (timer == null) ? 0 : timer.count();
    }

    /** {@code ACL SETUSER default <rule>} on every master of the cluster this test started. */
    private static void everyMaster(String rule) {
        for (String url : CLUSTER.masterUrls()) {
            RedisClient client = RedisClient.create(url);
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                connection.sync().dispatch(io.lettuce.core.protocol.CommandType.ACL, new io.lettuce.core.output.StatusOutput<>(io.lettuce.core.codec.StringCodec.UTF8),
                        new io.lettuce.core.protocol.CommandArgs<>(io.lettuce.core.codec.StringCodec.UTF8).add("SETUSER").add("default").add(rule));
            }
            finally {
                client.shutdown();
            }
        }
    }

    private void assertServedWithin(String key, String value, Duration bound) {
        long served = awaitServed(key, value, write(key, value), bound);
        System.out.printf("Near cache, cluster: another writer's change served %.2f ms after its reply (bound %s)%n", served / 1e6, bound);
    }

    /**
     * Until {@code master} is among the servers tracked and tracks, within {@link #MOVED} of the change's
     * end: the library's own topology check, not Lettuce's, finds it. How long that took.
     */
    private Duration awaitTracked(String master) throws InterruptedException {
        long started = System.nanoTime();
        while (!Boolean.TRUE.equals(tracking.servers().get(master))) {
            if (System.nanoTime() - started > MOVED.toNanos()) {
                fail("%s not tracked %s after the change (tracking %s)", master, MOVED, tracking.servers());
            }
            Thread.sleep(5);
        }
        return Duration.ofNanos(System.nanoTime() - started);
    }

    private Duration awaitWarm() throws InterruptedException {
        return new Reads(cache, tracking).awaitWarm(KEYS);
    }

    private long awaitServed(String key, String value, long written, Duration bound) {
        return new Reads(cache, tracking).awaitServed(key, value, written, bound).toNanos();
    }

    /** Writes {@code key} on the master that owns it, as another application would; the reply's instant. */
    private static long write(String key, String value) {
        return CLUSTER.setOnOwner(key, value);
    }

    private static String keyOn(int master) {
        return KEYS.stream().filter(key -> CLUSTER.masterOf(key) == master).findFirst().orElseThrow();
    }

    /**
     * Another writer and a reader through the cache, both running until closed: the writer sets {@code key} to {@code w1},
     * {@code w2}, ... every 10 ms through a cluster client of its own, which follows the slot to whichever master serves it; the
     * reader reads it through the near cache every millisecond. Each write's reply and each read's start are kept, so that every
     * read can be checked afterwards against the writes acknowledged before it began.
     */
    private final class Load implements AutoCloseable {

        private final String key;

        private final RedisClusterClient client;

        private final StatefulRedisClusterConnection<String, String> connection;

        /** The reply's instant of write {@code i}, at index {@code i - 1}; written by the writer only, read once it stopped. */
        private final List<Long> replies = new ArrayList<>();

        private final List<long[]> reads = new ArrayList<>();

        private final AtomicLong failedWrites = new AtomicLong();

        private final AtomicLong failedReads = new AtomicLong();

        /** What ended a thread other than a failed command, if anything: rethrown by the check. */
        private final java.util.concurrent.atomic.AtomicReference<Throwable> broken = new java.util.concurrent.atomic.AtomicReference<>();

        private final Thread writer;

        private final Thread reader;

        private volatile boolean running = true;

        Load(String key) {
            this.key = key;
            client = RedisClusterClient.create(CLUSTER.nodes().stream().map(node -> RedisURI.create("redis://" + node)).toList());
            client.setOptions(ClusterClientOptions.builder()
                    .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder().enableAllAdaptiveRefreshTriggers()
                            .enablePeriodicRefresh(Duration.ofMillis(500)).build())
                    .timeoutOptions(TimeoutOptions.enabled(Duration.ofMillis(500))).build());
            connection = client.connect();
            writer = new Thread(() -> guarded(this::write), "writer");
            reader = new Thread(() -> guarded(this::read), "reader");
            writer.start();
            reader.start();
        }

        private void guarded(Runnable work) {
            try {
                work.run();
            }
            catch (Throwable ex) {
                broken.compareAndSet(null, ex);
            }
        }

        private void write() {
            while (running) {
                String value = "w" + (replies.size() + 1);
                try {
                    connection.sync().set(key, value);
                    replies.add(System.nanoTime());
                }
                catch (RuntimeException ex) {
                    // a master stopped, or paused for the failover: the same value again
                    failedWrites.incrementAndGet();
                }
                pause(10);
            }
        }

        private void read() {
            while (running) {
                long started = System.nanoTime();
                try {
                    String value = cache.getAll(List.of(key)).values().get(0);
                    reads.add(new long[] { started, (value != null && value.startsWith("w")) ? Long.parseLong(value.substring(1)) : 0 });
                }
                catch (DataAccessException ex) {
                    // a master away: no answer, which is not a stale one
                    failedReads.incrementAndGet();
                }
                pause(1);
            }
        }

        /**
         * Stops both, then fails if a read that began more than {@code bound} after a write's reply gave an older value; prints the
         * stalest read, how many writes and reads failed fast, and how many were made.
         */
        void assertNoneStaleBeyond(Duration bound, String what) throws InterruptedException {
            stop();
            long stalest = 0;
            List<String> beyond = new ArrayList<>();
            for (long[] read : reads) {
                long seen = read[1];
                // the first write newer than the value read; how long before the read it was acknowledged
                if (seen < replies.size()) {
                    long late = read[0] - replies.get((int) seen);
                    stalest = Math.max(stalest, late);
                    if (late > bound.toNanos() && beyond.size() < 5) {
                        beyond.add("w%d read %d ms after w%d was written".formatted(seen, late / 1_000_000, seen + 1));
                    }
                }
            }
            System.out.printf("Near cache, cluster, %s with another writer writing every 10 ms: %d writes (%d failed fast), %d reads (%d"
                    + " failed fast); the stalest read began %.1f ms after a newer value's write (bound %s)%n", what, replies.size(),
                    failedWrites.get(), reads.size(), failedReads.get(), stalest / 1e6, bound);
            assertThat(broken.get()).as("the writer and the reader ran to the end").isNull();
            assertThat(replies).as("writes during %s", what).hasSizeGreaterThan(100);
            assertThat(reads).as("reads during %s", what).hasSizeGreaterThan(200);
            assertThat(beyond).as("reads staler than %s during %s", bound, what).isEmpty();
            assertThat(failedReads.get()).as("reads that failed during %s", what).isLessThan(reads.size() / 10);
        }

        private void stop() throws InterruptedException {
            running = false;
            writer.join();
            reader.join();
        }

        @Override
        public void close() throws InterruptedException {
            stop();
            connection.close();
            client.shutdown();
        }

        private static void pause(long millis) {
            try {
                Thread.sleep(millis);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static String address(String url) {
        java.net.URI uri = java.net.URI.create(url);
        return uri.getHost() + ":" + uri.getPort();
    }
}
