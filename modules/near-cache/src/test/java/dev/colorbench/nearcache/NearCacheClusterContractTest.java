package dev.colorbench.nearcache;

import java.time.Duration;
import java.util.Map;

import dev.colorbench.redis.nearcache.NearCacheTracking;
import dev.colorbench.testkit.RedisClusterContractTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract on a Redis Cluster, at the cost of a warm request: nothing, on any master (so a full read
 * uses none of them). A stopped master drops the copy as soon as its tracking connection is lost; from
 * then on the module reads the cluster, and the stopped master's colors are 503s, until it is back and
 * every master tracks again.
 */
class NearCacheClusterContractTest extends RedisClusterContractTest {

    /** How soon the copy must answer: every master's tracking connection open and confirmed. */
    private static final Duration TRACKING = Duration.ofSeconds(15);

    @Autowired
    private NearCacheTracking tracking;

    NearCacheClusterContractTest() {
        super(Map.of(), 0);
    }

    @Override
    protected boolean answersFromALocalCopy() {
        return true;
    }

    /** Warm means a full read that cost the masters nothing: an earlier test's writes (seeding again) are invalidated late. */
    @Override
    protected void warmUp() {
        warmUpUntilAReadCostsNothing(Duration.ofSeconds(5));
    }

    /** Each case starts with every master tracking, as after start-up or after the stopped master's return. */
    @BeforeEach
    void everyMasterTracks() throws InterruptedException {
        long deadline = System.nanoTime() + TRACKING.toNanos();
        while (!tracking.isActive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(tracking.isActive()).as("tracking within %s: %s", TRACKING, tracking.servers()).isTrue();
    }

    @Test
    void oneTrackingConnectionPerMaster() {
        assertThat(tracking.servers()).hasSize(3).allSatisfy((master, tracks) -> assertThat(tracks).as(master).isTrue());
        for (String node : cluster().nodes()) {
            assertThat(tracking.servers()).containsKey("master " + node);
        }
    }
}
