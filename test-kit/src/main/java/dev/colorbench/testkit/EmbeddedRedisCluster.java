package dev.colorbench.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import redis.embedded.RedisServer;

/**
 * A real Redis Cluster of three masters (no replicas), each a {@code redis-server --cluster-enabled yes}
 * from the binary in {@code com.github.codemonstur:embedded-redis} (or the one {@value EmbeddedRedis#SERVER}
 * names), on loopback ports, for tests and the benchmark on machines with nothing installed. The library's own cluster builders need Jedis, which the
 * project leaves out; this one joins the nodes itself with {@code CLUSTER MEET} and gives each a third of
 * the slots with {@code CLUSTER ADDSLOTS} (the embedded Redis is 6.2, before {@code ADDSLOTSRANGE}).
 * {@link #start()} returns only once every node reports {@code cluster_state:ok} with all 16384 slots
 * assigned and ok, so nothing started afterwards sees a cluster still forming.
 *
 * <p>It keeps nothing on disk but each node's {@code nodes.conf}, the cluster's own record of who owns
 * which slots, in a temporary folder of its own, removed on {@link #close()}. That file is what lets
 * {@link #stopMaster} and {@link #startMaster} take a master away and bring it back on its port with its
 * node id and slots: it rejoins by itself, empty (like {@link EmbeddedRedis}, no data is saved).
 *
 * <p>Two settings differ from Redis's defaults, both for tests on a loaded two-core machine: a node
 * timeout of 2 s instead of 15 s, so that the cluster notices a stopped master, and forgives it when it is
 * back, within seconds; and {@code cluster-require-full-coverage no}, so that while one master is away the
 * other two go on serving their slots (a request that needs the stopped master's slots still fails), and a
 * master that a starved machine briefly took for failing does not stop the whole cluster.
 */
public final class EmbeddedRedisCluster implements AutoCloseable {

    /** Three masters: the fewest Redis Cluster can agree on failures with. */
    public static final int MASTERS = 3;

    private static final int SLOTS = SlotHash.SLOT_COUNT;

    /** Redis listens on its port and on port + 10000 for the cluster bus. */
    private static final int BUS_PORT_OFFSET = 10_000;

    private static final int ATTEMPTS = 5;

    private static final Duration READY = Duration.ofSeconds(30);

    private static final Pattern STATE = Pattern.compile("^cluster_state:(\\w+)", Pattern.MULTILINE);

    private static final Pattern SLOTS_OK = Pattern.compile("^cluster_slots_ok:(\\d+)", Pattern.MULTILINE);

    private static final Pattern KNOWN_NODES = Pattern.compile("^cluster_known_nodes:(\\d+)", Pattern.MULTILINE);

    private final Path folder;

    private final List<Master> masters;

    /** The threads of the kit's own short connections to the nodes (joining them, asking whether they are ok), made once. */
    private final ClientResources resources = DefaultClientResources.builder().ioThreadPoolSize(1).computationThreadPoolSize(1).build();

    /** One master: its port, its slots (first to last, inclusive) and its process while it runs. */
    private static final class Master {

        final int port;

        final int firstSlot;

        final int lastSlot;

        RedisServer server;

        Master(int port, int firstSlot, int lastSlot) {
            this.port = port;
            this.firstSlot = firstSlot;
            this.lastSlot = lastSlot;
        }
    }

    private EmbeddedRedisCluster(Path folder, List<Master> masters) {
        this.folder = folder;
        this.masters = masters;
    }

    /** Starts three masters on free ports, joins them and waits for the cluster to be ok. */
    public static EmbeddedRedisCluster start() {
        RuntimeException failure = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            EmbeddedRedisCluster cluster = notStarted();
            try {
                cluster.form();
                return cluster;
            }
            catch (RuntimeException ex) {
                cluster.close();
                failure = ex;
            }
        }
        throw failure;
    }

    private static EmbeddedRedisCluster notStarted() {
        Path folder;
        try {
            folder = Files.createTempDirectory("colorbench-redis-cluster");
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        List<Master> masters = new ArrayList<>();
        for (int i = 0; i < MASTERS; i++) {
            masters.add(new Master(freePortWithFreeBusPort(), i * SLOTS / MASTERS, (i + 1) * SLOTS / MASTERS - 1));
        }
        return new EmbeddedRedisCluster(folder, List.copyOf(masters));
    }

    private void form() {
        for (int i = 0; i < MASTERS; i++) {
            startProcess(i);
        }
        for (int i = 0; i < MASTERS; i++) {
            Master master = masters.get(i);
            int[] slots = IntStream.rangeClosed(master.firstSlot, master.lastSlot).toArray();
            int index = i;
            onNode(i, redis -> {
                redis.sync().clusterAddSlots(slots);
                if (index > 0) {
                    redis.sync().clusterMeet("127.0.0.1", masters.get(0).port);
                }
                return null;
            });
        }
        awaitHealthy(READY);
    }

    /** {@code host:port} of each master, in slot order (the first holds slot 0). */
    public List<String> nodes() {
        return masters.stream().map(master -> "127.0.0.1:" + master.port).toList();
    }

    /** What to give a module as {@code REDIS_CLUSTER_NODES} (or {@code spring.data.redis.cluster.nodes}): every master, comma-separated. */
    public String clusterNodes() {
        return String.join(",", nodes());
    }

    /** A {@code redis://} URL of one master by itself, e.g. for {@link RedisCommandStats} (commands sent there as to one server may be refused with {@code MOVED}). */
    public String masterUrl(int master) {
        return "redis://127.0.0.1:" + masters.get(master).port;
    }

    /** The {@code redis://} URL of every master, in slot order. */
    public List<String> masterUrls() {
        return IntStream.range(0, MASTERS).mapToObj(this::masterUrl).toList();
    }

    /** Counts what every master executed, summed and by master ({@link ClusterCommandStats}). */
    public ClusterCommandStats stats() {
        return ClusterCommandStats.connect(masterUrls());
    }

    /** The master that serves {@code key}'s slot (hash tags included). */
    public int masterOf(String key) {
        return masterOfSlot(SlotHash.getSlot(key));
    }

    /** The master that serves {@code slot}. */
    public int masterOfSlot(int slot) {
        for (int i = 0; i < MASTERS; i++) {
            if (slot >= masters.get(i).firstSlot && slot <= masters.get(i).lastSlot) {
                return i;
            }
        }
        throw new IllegalArgumentException("No slot " + slot);
    }

    /** Stops one master at once (its connections are closed); the others go on serving their slots. */
    public void stopMaster(int master) {
        Master stopped = masters.get(master);
        try {
            if (stopped.server != null) {
                stopped.server.stop();
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        finally {
            stopped.server = null;
        }
    }

    /**
     * Starts a stopped master again on its port, with its node id and slots (from its {@code nodes.conf}) and
     * no data, and waits until the cluster is ok again, all slots covered, on every node.
     */
    public void startMaster(int master) {
        if (masters.get(master).server == null) {
            startProcess(master);
        }
        awaitHealthy(READY);
    }

    /** Whether a master's process is running (it may not yet be serving: see {@link #isHealthy()}). */
    public boolean isRunning(int master) {
        return masters.get(master).server != null;
    }

    /** Whether every master is running and reports the cluster ok with all 16384 slots ok and all masters known. */
    public boolean isHealthy() {
        for (int i = 0; i < MASTERS; i++) {
            if (!isRunning(i)) {
                return false;
            }
            String info;
            try {
                info = onNode(i, redis -> redis.sync().clusterInfo());
            }
            catch (RuntimeException ex) {
                return false;
            }
            if (!"ok".equals(find(STATE, info)) || !String.valueOf(SLOTS).equals(find(SLOTS_OK, info))
                    || !String.valueOf(MASTERS).equals(find(KNOWN_NODES, info))) {
                return false;
            }
        }
        return true;
    }

    /** Waits until {@link #isHealthy()}, or fails after {@code timeout}. */
    public void awaitHealthy(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!isHealthy()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("The Redis cluster on " + nodes() + " was not ok within " + timeout + ": " + describe());
            }
            sleep(50);
        }
    }

    private String describe() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < MASTERS; i++) {
            String state;
            try {
                String info = isRunning(i) ? onNode(i, redis -> redis.sync().clusterInfo()) : null;
                state = (info == null) ? "stopped" : "state " + find(STATE, info) + ", slots ok " + find(SLOTS_OK, info)
                        + ", known nodes " + find(KNOWN_NODES, info);
            }
            catch (RuntimeException ex) {
                state = ex.getClass().getSimpleName();
            }
            text.append(i == 0 ? "" : "; ").append(nodes().get(i)).append(' ').append(state);
        }
        return text.toString();
    }

    private void startProcess(int index) {
        Master master = masters.get(index);
        try {
            RedisServer server = EmbeddedRedis.builder(EmbeddedRedis.configuredExecutable())
                    .port(master.port)
                    .bind("127.0.0.1")
                    .setting("dir " + folder)
                    .setting("cluster-enabled yes")
                    .setting("cluster-config-file " + folder.resolve("nodes-" + master.port + ".conf"))
                    .setting("cluster-node-timeout 2000")
                    .setting("cluster-require-full-coverage no")
                    .setting("save \"\"")
                    .setting("appendonly no")
                    .onShutdownForceStop(true)
                    .build();
            server.start();
            master.server = server;
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Could not start a cluster node of embedded Redis on port " + master.port, ex);
        }
    }

    /** Runs {@code action} on a short-lived connection of its own to one master, which must answer within a second. */
    private <T> T onNode(int master, Function<StatefulRedisConnection<String, String>, T> action) {
        RedisURI uri = RedisURI.create(masterUrl(master));
        uri.setTimeout(Duration.ofSeconds(1));
        RedisClient client = RedisClient.create(resources, uri);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return action.apply(connection);
        }
        finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        }
    }

    /** Stops every master and removes the folder with their {@code nodes.conf}. */
    @Override
    public void close() {
        for (int i = 0; i < MASTERS; i++) {
            try {
                stopMaster(i);
            }
            catch (RuntimeException ex) {
                // the others are stopped all the same
            }
        }
        resources.shutdown(0, 1, TimeUnit.SECONDS);
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** The folder the nodes keep their {@code nodes.conf} in, removed on {@link #close()}. */
    Path folder() {
        return folder;
    }

    /**
     * A loopback port that was free just now, whose cluster bus port (+10000) was free too and exists.
     * Ephemeral ports reach 60999 on Linux, so some the system offers have no bus port.
     */
    private static int freePortWithFreeBusPort() {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = FreePorts.loopback();
            if (port + BUS_PORT_OFFSET <= 65_535 && isFree(port + BUS_PORT_OFFSET)) {
                return port;
            }
        }
        throw new IllegalStateException("No free loopback port with a free cluster bus port");
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        }
        catch (IOException ex) {
            return false;
        }
    }

    private static String find(Pattern pattern, String info) {
        Matcher m = pattern.matcher(info);
        return m.find() ? m.group(1) : null;
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
}
