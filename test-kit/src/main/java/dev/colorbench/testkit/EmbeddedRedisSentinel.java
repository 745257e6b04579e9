package dev.colorbench.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import redis.embedded.RedisSentinel;
import redis.embedded.core.RedisSentinelBuilder;

/**
 * A master, its replica and one Sentinel that watches them, each embedded on a free port of 127.0.0.1: the setup an
 * application names with {@code spring.data.redis.sentinel.master} and {@code .nodes}. One Sentinel suffices for a test,
 * with a quorum of one; a {@link #failover()} on request promotes the replica, and the former master becomes its
 * replica. The servers are the same executable as {@link EmbeddedRedis}'s, the Sentinel included
 * ({@code redis-server --sentinel}), and keep nothing on disk but the Sentinel's own configuration, which it rewrites.
 */
public final class EmbeddedRedisSentinel implements AutoCloseable {

    /** The name the Sentinel knows the master by. */
    public static final String MASTER = "colorbench";

    /** How long a failover may take before the call gives up. */
    private static final Duration FAILOVER = Duration.ofSeconds(30);

    private final EmbeddedRedis first;

    private final DelayProxy path;

    private final EmbeddedRedis second;

    private final int port;

    private final RedisSentinel sentinel;

    private EmbeddedRedisSentinel(EmbeddedRedis first, DelayProxy path, EmbeddedRedis second, int port, RedisSentinel sentinel) {
        this.first = first;
        this.path = path;
        this.second = second;
        this.port = port;
        this.sentinel = sentinel;
    }

    /** Starts a master, a replica in sync with it, and a Sentinel that has seen both; returns once a failover could begin. */
    public static EmbeddedRedisSentinel start() {
        EmbeddedRedis first = EmbeddedRedis.start();
        DelayProxy path = DelayProxy.start("127.0.0.1", first.port(), Duration.ZERO);
        EmbeddedRedis second = EmbeddedRedis.startReplicaOf(first, path);
        EmbeddedRedisSentinel started = null;
        IOException failure = null;
        // the port was free a moment ago, but an outgoing connection may take it before the Sentinel binds it: another port then
        for (int attempt = 0; attempt < EmbeddedRedis.ATTEMPTS && started == null; attempt++) {
            int port = FreePorts.loopback();
            RedisSentinelBuilder builder = RedisSentinel.newRedisSentinel().bind("127.0.0.1").port(port).masterName(MASTER).masterPort(first.port())
                    .quorumSize(1).downAfterMilliseconds(1000).failOverTimeout(10_000).parallelSyncs(1);
            if (EmbeddedRedis.configuredExecutable() != null) {
                builder.executableProvider(EmbeddedRedis.configuredExecutable()::toFile);
            }
            RedisSentinel sentinel = builder.build();
            try {
                sentinel.start();
                started = new EmbeddedRedisSentinel(first, path, second, port, sentinel);
            }
            catch (IOException ex) {
                failure = ex;
            }
        }
        if (started == null) {
            second.close();
            path.close();
            first.close();
            throw new UncheckedIOException("Could not start the embedded Sentinel on a free port", failure);
        }
        try {
            started.awaitReplicaSeen();
        }
        catch (RuntimeException ex) {
            started.close();
            throw ex;
        }
        return started;
    }

    /** The Sentinel's address, {@code 127.0.0.1:<port>}: {@code spring.data.redis.sentinel.nodes}. */
    public String node() {
        return "127.0.0.1:" + port;
    }

    /** The URL of the master the Sentinel names now. */
    public String masterUrl() {
        return "redis://127.0.0.1:" + masterPort();
    }

    /** The port of the master the Sentinel names now. */
    public int masterPort() {
        return withSentinel(sentinel -> ((java.net.InetSocketAddress) sentinel.sync().getMasterAddrByName(MASTER)).getPort());
    }

    /**
     * Asks the Sentinel for a failover ({@code SENTINEL FAILOVER}): the replica becomes the master, and the former master
     * its replica. Returns once the Sentinel names the new master and that server says it is one; how long that took.
     *
     * @throws IllegalStateException when the failover does not end within 30 s
     */
    public Duration failover() {
        int before = masterPort();
        long started = System.nanoTime();
        // a failover on request does not wait for the replica: every write the master acknowledged must be there first
        awaitCaughtUp(before, before == first.port() ? second.port() : first.port());
        withSentinel(sentinel -> sentinel.sync().failover(MASTER));
        while (true) {
            int now = masterPort();
            if (now != before && isMaster(now)) {
                return Duration.ofNanos(System.nanoTime() - started);
            }
            if (System.nanoTime() - started > FAILOVER.toNanos()) {
                throw new IllegalStateException("The Sentinel named no new master within " + FAILOVER + "; it names port " + now);
            }
            sleep(20);
        }
    }

    /** Until the Sentinel lists the replica as up and linked to its master: before that it would refuse a failover. */
    private void awaitReplicaSeen() {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            List<Map<String, String>> replicas = withSentinel(sentinel -> sentinel.sync().replicas(MASTER));
            boolean seen = replicas.stream().anyMatch(replica -> String.valueOf(second.port()).equals(replica.get("port"))
                    && "slave".equals(replica.get("flags")) && "ok".equals(replica.get("master-link-status")));
            if (seen) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("The Sentinel did not see the replica within 30 s: " + replicas);
            }
            sleep(50);
        }
    }

    /** Until the replica on {@code replicaPort} has every write the master on {@code masterPort} took so far. */
    private static void awaitCaughtUp(int masterPort, int replicaPort) {
        long target = offset(masterPort, "master_repl_offset");
        long deadline = System.nanoTime() + FAILOVER.toNanos();
        while (offset(replicaPort, "slave_repl_offset") < target) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("The replica on port " + replicaPort + " did not reach offset " + target + " within " + FAILOVER);
            }
            sleep(5);
        }
    }

    /** A replication offset from the server's {@code INFO replication}; -1 while it has none. */
    private static long offset(int port, String field) {
        RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", port));
        try (var connection = client.connect()) {
            java.util.regex.Matcher found = java.util.regex.Pattern.compile(field + ":(\\d+)").matcher(connection.sync().info("replication"));
            return found.find() ? Long.parseLong(found.group(1)) : -1;
        }
        finally {
            client.shutdown();
        }
    }

    private static boolean isMaster(int port) {
        RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", port));
        try (var connection = client.connect()) {
            return connection.sync().info("replication").contains("role:master");
        }
        catch (RuntimeException ex) {
            return false;
        }
        finally {
            client.shutdown();
        }
    }

    private <T> T withSentinel(java.util.function.Function<StatefulRedisSentinelConnection<String, String>, T> command) {
        RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", port));
        try (StatefulRedisSentinelConnection<String, String> connection = client.connectSentinel()) {
            return command.apply(connection);
        }
        finally {
            client.shutdown();
        }
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

    /** Stops the Sentinel, then both servers. */
    @Override
    public void close() {
        try {
            sentinel.stop();
        }
        catch (IOException ex) {
            // stopping
        }
        finally {
            second.close();
            path.close();
            first.close();
        }
    }
}
