package dev.colorbench.testkit;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import org.junit.jupiter.api.Test;

import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole {@link ColorApiContractTest} again, with the module pointed at a Redis Cluster instead of one
 * server ({@code spring.data.redis.cluster.nodes}, what {@code REDIS_CLUSTER_NODES} sets): the shared
 * {@link TestRedisCluster} of three masters, started once per test JVM. Every answer and every error must
 * be the same as on one server, and what one {@code GET /colors} costs is counted on every master
 * ({@code INFO commandstats}) and summed: a subclass names that sum, and how many masters it is spread
 * over. Round trips are the masters' socket reads, summed; by default one per command, as on one server.
 *
 * <p>On top of the contract: a full read's share per master is printed (the figures of the modules'
 * READMEs), and the master that served most of it is stopped, the module must answer 503 problems fast
 * (no request waits for the node), and once the master is back on its port (empty, with its slots) the
 * module must serve the whole palette again, seeding what the restart lost. A module that needs a
 * hash-tagged layout or another setting for the cluster says so with {@code @TestPropertySource}; one
 * that answers from a local copy the masters invalidate says so with {@link #answersFromALocalCopy()}.
 *
 * <p>The context is closed after the class, so that no module left in Spring's context cache keeps
 * reconnecting to the cluster (and sending commands) while another module's work is counted.
 */
@DirtiesContext
public abstract class RedisClusterContractTest extends ColorApiContractTest {

    /** The most a request may take to fail while a master it needs is away. */
    protected static final Duration FAST_FAILURE = Duration.ofSeconds(1);

    /**
     * How soon a module must serve again after the master is back: the node refuses commands for its
     * first two seconds ({@code CLUSTER_WRITABLE_DELAY}), then Lettuce's reconnect back-off (at most 1 s).
     */
    protected static final Duration RECOVERY = Duration.ofSeconds(15);

    private final RedisClusterTestStore cluster;

    private final int mastersPerFullRead;

    private final Sending sending;

    /** How the commands of one full read reach the masters, which decides the round trips it may cost. */
    protected enum Sending {
        /** One after another, each waiting for its answer: a round trip per command. */
        ONE_AT_A_TIME,
        /**
         * All in flight together (a multi-key command split per slot, a pipeline): several to a socket
         * read on each master, so at least one round trip per master used and at most one per command.
         */
        ALL_AT_ONCE
    }

    /**
     * @param commandsPerFullRead the commands one {@code GET /colors} issues, summed over the masters
     * @param mastersPerFullRead how many masters execute any of them: 3 when the keys are spread over the
     * slots, 1 when they share one (one key, or a hash tag)
     */
    protected RedisClusterContractTest(Map<String, Long> commandsPerFullRead, int mastersPerFullRead) {
        this(commandsPerFullRead, mastersPerFullRead, Sending.ONE_AT_A_TIME);
    }

    protected RedisClusterContractTest(Map<String, Long> commandsPerFullRead, int mastersPerFullRead, Sending sending) {
        this(new RedisClusterTestStore(), commandsPerFullRead, mastersPerFullRead, sending);
    }

    private RedisClusterContractTest(RedisClusterTestStore cluster, Map<String, Long> commandsPerFullRead, int mastersPerFullRead,
            Sending sending) {
        super(cluster, commandsPerFullRead);
        this.cluster = cluster;
        this.mastersPerFullRead = mastersPerFullRead;
        this.sending = sending;
    }

    @Override
    protected void assertRoundTrips(long roundTrips, long commands) {
        if (sending == Sending.ALL_AT_ONCE) {
            assertThat(roundTrips).as("round trips of one GET /colors").isBetween((long) mastersPerFullRead, commands);
        }
        else {
            super.assertRoundTrips(roundTrips, commands);
        }
    }

    /**
     * Whether the module answers from a local copy that the masters invalidate (a near cache). Such a
     * module answers from its copy until it notices that a master is gone, by losing the connection that
     * master's invalidations arrive on: that must happen within {@link #FAST_FAILURE} of the master
     * stopping, every answer until then must be the right one, and from then on the stopped master's
     * colors are 503s like any other module's.
     */
    protected boolean answersFromALocalCopy() {
        return false;
    }

    /** The cluster wins over {@code spring.data.redis.url} in Spring Boot when both are set. */
    @DynamicPropertySource
    static void clusterNodes(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.cluster.nodes", TestRedisCluster::nodes);
    }

    @Test
    void aFullReadIsSpreadOverTheMastersThatHoldItsKeys() {
        ClusterCommandStats.Usage usage = ClusterReads.measure(getClass().getSimpleName(), cluster.stats(), () -> {
            HttpResponse<String> response = get("/colors");
            assertThat(response.body()).isEqualTo(ColorJson.palette());
            return response.statusCode();
        });

        assertThat(usage.mastersUsed()).as("masters used by one GET /colors: %s", usage.perMaster()).isEqualTo(mastersPerFullRead);
    }

    @Test
    void aStoppedMasterIsA503FastAndTheModuleServesAgainWhenItReturns() {
        get("/colors");
        int master = cluster.stats().usage(() -> get("/colors")).busiestMaster();
        EmbeddedRedisCluster nodes = cluster.cluster();
        try {
            nodes.stopMaster(master);
            if (answersFromALocalCopy()) {
                awaitTheOutageNoticed("/colors");
            }

            for (String path : new String[] { "/colors", "/colors", "/colors?names=" + String.join(",", Palette.names()) }) {
                assertFast503(path);
            }
        }
        finally {
            nodes.startMaster(master);
            cluster.replant(master);
        }

        HttpResponse<String> served = awaitWithinRecovery("/colors");
        assertThat(served.body()).isEqualTo(ColorJson.palette());
        // Lettuce's other connections to that master (a pool's) reconnect on their back-off, at most 1 s:
        // let them, so that their handshakes fall in no other test's count
        sleep(1_200);
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());
    }

    /** Right answers from the local copy, then, within {@link #FAST_FAILURE} of the master stopping, a 503. */
    private void awaitTheOutageNoticed(String path) {
        assertThat(LocalHttp.untilNoLongerFromTheCopy(this::get, path, FAST_FAILURE, ColorJson.palette()).statusCode())
                .as("%s within %s of the master stopping", path, FAST_FAILURE).isEqualTo(503);
    }

    /** A request that must be refused with a 503 problem, within {@link #FAST_FAILURE}. */
    private void assertFast503(String path) {
        long started = System.nanoTime();
        HttpResponse<String> response = get(path);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(took).as("GET %s with a master stopped took %s", path, took).isLessThanOrEqualTo(FAST_FAILURE);
        assertProblem(response, 503);
    }

    /** Asks for {@code path} until it is a 200, for at most {@link #RECOVERY}; meanwhile only 503s. */
    private HttpResponse<String> awaitWithinRecovery(String path) {
        long started = System.nanoTime();
        long deadline = started + RECOVERY.toNanos();
        HttpResponse<String> response = get(path);
        while (response.statusCode() != 200 && System.nanoTime() < deadline) {
            assertThat(response.statusCode()).as("while recovering, %s answers 503, never a wrong 200", path).isEqualTo(503);
            sleep(50);
            response = get(path);
        }
        assertThat(response.statusCode()).as("%s recovered within %s; last answer %s", path, RECOVERY, response.body()).isEqualTo(200);
        System.out.printf("%s served again %d ms after the cluster was ok again%n", getClass().getSimpleName(),
                Duration.ofNanos(System.nanoTime() - started).toMillis());
        return response;
    }

    /** The cluster the module runs on. */
    protected EmbeddedRedisCluster cluster() {
        return cluster.cluster();
    }

    /** What every master did while {@code action} ran, summed and by master. */
    protected ClusterCommandStats.Usage clusterUsage(Runnable action) {
        return cluster.stats().usage(action);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
