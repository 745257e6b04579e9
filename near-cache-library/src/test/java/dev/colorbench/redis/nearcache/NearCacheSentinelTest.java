package dev.colorbench.redis.nearcache;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import dev.colorbench.testkit.EmbeddedRedisSentinel;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A near cache under Redis Sentinel ({@code spring.data.redis.sentinel}), across a failover with writes during it. After a
 * failover the former master keeps its connections, the application's included, and takes writes on them until the Sentinel
 * reconfigures it (about ten seconds later, at its next {@code INFO}); writers that connect meanwhile reach the new master, which
 * the tracking connection does not hear. So the copies must stop answering within {@link #BOUND} of the Sentinel naming the new
 * master, while the former one still says it is a master, and answer again once the tracking connection is on the new one.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(classes = StringsApplication.class, properties = { "redis.near-cache.prefixes=" + NearCacheSentinelTest.PREFIX,
        "redis.near-cache.topology-refresh=250ms" })
@DirtiesContext
class NearCacheSentinelTest {

    static final String PREFIX = "sentinel::";

    /** Two topology refreshes (a check every 250 ms, each waiting at most that long), and 500 ms for the threads on a busy machine. */
    static final Duration BOUND = Duration.ofMillis(1000);

    private static final EmbeddedRedisSentinel SENTINEL = EmbeddedRedisSentinel.start();

    @Autowired
    private NearCacheTracking tracking;

    @Autowired
    private NearCache<String> cache;

    @DynamicPropertySource
    static void sentinel(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.sentinel.master", () -> EmbeddedRedisSentinel.MASTER);
        registry.add("spring.data.redis.sentinel.nodes", SENTINEL::node);
    }

    @AfterAll
    static void stopServers() {
        SENTINEL.close();
    }

    @Test
    void theCopiesFollowAFailoverWithWritesDuringIt(CapturedOutput output) throws Exception {
        String key = PREFIX + "k";
        // a key nobody writes: whether the copy answers it tells whether the copies answer
        String probe = PREFIX + "probe";
        int former = SENTINEL.masterPort();
        Writers writers = new Writers();
        try {
            writers.write(former, key, "v0");
            writers.write(former, probe, "p");
            awaitAnswering(key, "v0");
            awaitAnswering(probe, "p");
            long changes = tracking.topologyChanges();
            // another writer, writing each value to the master the Sentinel names at the time
            Thread writer = new Thread(() -> {
                for (int i = 1; !Thread.currentThread().isInterrupted(); i++) {
                    try {
                        int port = writers.namedMaster();
                        writers.write(port, key, "w" + i);
                    }
                    catch (RuntimeException ex) {
                        // the former master refuses writes once it is a replica, and is killed at the end
                    }
                    sleep(20);
                }
            }, "writer");
            writer.setDaemon(true);
            writer.start();
            Duration failover = SENTINEL.failover();
            int promoted = SENTINEL.masterPort();
            long firstOnPromoted = writers.firstWriteNanos(promoted);
            while (cache.getIfPresent(probe) != null) {
                assertThat(System.nanoTime() - firstOnPromoted).as("the copy still answers %s after a write to the new master", BOUND)
                        .isLessThan(BOUND.toNanos());
                Thread.sleep(5);
            }
            Duration stopped = Duration.ofNanos(System.nanoTime() - firstOnPromoted);
            System.out.printf("copies stopped; last drop: %s%n", tracking.lastDrop());
            assertThat(writers.isMaster(former)).as("the former master, not yet reconfigured, when the copies stopped").isTrue();
            assertThat(tracking.topologyChanges()).as("a change of master counted").isGreaterThan(changes);
            writer.interrupt();
            writer.join();
            writers.write(promoted, key, "after");
            long written = System.nanoTime();
            Duration followed = awaitAnswering(key, "after");
            // one warning for the drops of the tracking connection while the former master is not yet reconfigured, not one a heartbeat
            long warnings = output.getOut().lines().filter(line -> line.contains(" WARN ") && line.contains("dropping the tracking connection")).count();
            assertThat(warnings).as("warnings of a dropped tracking connection across the failover").isLessThanOrEqualTo(2);
            System.out.printf("Sentinel failover %d ms; copies stopped %d ms after the first write to the new master; answering again,"
                    + " from the new master, %d ms after the last write%n", failover.toMillis(), stopped.toMillis(),
                    Duration.ofNanos(System.nanoTime() - written).toMillis());
            assertThat(followed).as("answering again after the failover").isLessThan(Duration.ofSeconds(60));
        }
        finally {
            writers.close();
        }
    }

    /** Until a read of {@code key} gives {@code value} and the copy answers it (read again from the copy); how long that took. */
    private Duration awaitAnswering(String key, String value) throws InterruptedException {
        long started = System.nanoTime();
        long deadline = started + Duration.ofSeconds(60).toNanos();
        while (true) {
            try {
                if (value.equals(cache.getAll(List.of(key)).values().get(0)) && value.equals(cache.getIfPresent(key))) {
                    return Duration.ofNanos(System.nanoTime() - started);
                }
            }
            catch (org.springframework.dao.DataAccessException ex) {
                // the data connection reconnecting
            }
            assertThat(System.nanoTime()).as("the copy answers %s within 60 s", value).isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** A connection to each server by port, and when the first write to each was answered. */
    private static final class Writers implements AutoCloseable {

        private final Map<Integer, StatefulRedisConnection<String, String>> connections = new ConcurrentHashMap<>();

        private final Map<Integer, AtomicLong> firstWrites = new ConcurrentHashMap<>();

        private final AtomicReference<RedisClient> client = new AtomicReference<>(RedisClient.create());

        private io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection<String, String> sentinel;

        /** The port of the master the Sentinel names now, asked on a connection kept open. */
        synchronized int namedMaster() {
            if (sentinel == null) {
                String[] node = SENTINEL.node().split(":");
                sentinel = client.get().connectSentinel(RedisURI.create(node[0], Integer.parseInt(node[1])));
            }
            return ((java.net.InetSocketAddress) sentinel.sync().getMasterAddrByName(EmbeddedRedisSentinel.MASTER)).getPort();
        }

        void write(int port, String key, String value) {
            connection(port).sync().set(key, value);
            firstWrites.computeIfAbsent(port, p -> new AtomicLong(System.nanoTime()));
        }

        long firstWriteNanos(int port) throws InterruptedException {
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (!firstWrites.containsKey(port)) {
                assertThat(System.nanoTime()).as("a write to the new master within 10 s").isLessThan(deadline);
                Thread.sleep(5);
            }
            return firstWrites.get(port).get();
        }

        boolean isMaster(int port) {
            return connection(port).sync().info("replication").contains("role:master");
        }

        private StatefulRedisConnection<String, String> connection(int port) {
            return connections.computeIfAbsent(port, p -> client.get().connect(RedisURI.create("127.0.0.1", p)));
        }

        @Override
        public void close() {
            if (sentinel != null) {
                sentinel.close();
            }
            connections.values().forEach(StatefulRedisConnection::close);
            client.get().shutdown();
        }
    }
}
