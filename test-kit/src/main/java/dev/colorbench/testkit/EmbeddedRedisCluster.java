package dev.colorbench.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.MigrateArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.ClusterPartitionParser;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import redis.embedded.RedisServer;

/**
 * A real Redis Cluster of three masters, each a {@code redis-server --cluster-enabled yes} from the binary in
 * {@code com.github.codemonstur:embedded-redis} (or the one {@value EmbeddedRedis#SERVER} names), on loopback
 * ports, for tests and the benchmark on machines with nothing installed. The library's own cluster builders need
 * Jedis, which the project leaves out; this one joins the nodes itself with {@code CLUSTER MEET} and gives each
 * a third of the slots with {@code CLUSTER ADDSLOTS} (the embedded Redis is 6.2, before {@code ADDSLOTSRANGE}).
 * {@link #start()} starts the masters alone; {@link #startWithReplicas()} gives each a replica too. Both return
 * only once every node agrees on the cluster ({@link #isHealthy()}), so nothing started afterwards sees a cluster
 * still forming.
 *
 * <p>A test may change the cluster as an operator or a crash would: {@link #failover} promotes a master's replica
 * on request, {@link #failoverByStopping} stops the master and lets its replica take over, {@link #moveSlot}
 * moves a slot and its keys to another master, and {@link #addMaster} adds an empty master. Each returns once
 * every node agrees on the change. A master index names a master and its replica together, as a pair: after a
 * failover, {@link #masterUrl} of that index is the promoted node, and the old master is its replica. One thread
 * changes the cluster at a time; the methods that only read the layout may be called from any thread.
 *
 * <p>It keeps nothing on disk but each node's {@code nodes.conf}, the cluster's own record of who owns which
 * slots, in a temporary folder of its own, removed on {@link #close()}. A replica copies its master over the
 * socket, never through a file. That file is what lets {@link #stopMaster} and {@link #startMaster} take a master
 * away and bring it back on its port with its node id and slots: it rejoins by itself, empty (like
 * {@link EmbeddedRedis}, no data is saved).
 *
 * <p>Some settings differ from Redis's defaults, for tests on a loaded two-core machine. A node timeout of 2 s
 * instead of 15 s, so that the cluster notices a stopped master, and forgives it when it is back, within seconds.
 * {@code cluster-require-full-coverage no}, so that while one master is away the other two go on serving their
 * slots (a request that needs the stopped master's slots still fails), and a master that a starved machine
 * briefly took for failing does not stop the whole cluster. And {@code cluster-replica-no-failover yes}, so that
 * a replica never takes over because its master was starved for two seconds: only {@link #failover} and
 * {@link #failoverByStopping} promote one.
 */
public final class EmbeddedRedisCluster implements AutoCloseable {

    /** Three masters: the fewest Redis Cluster can agree on failures with. What {@link #start()} starts. */
    public static final int MASTERS = 3;

    private static final int SLOTS = SlotHash.SLOT_COUNT;

    /** Redis listens on its port and on port + 10000 for the cluster bus. */
    private static final int BUS_PORT_OFFSET = 10_000;

    private static final int ATTEMPTS = 5;

    private static final Duration READY = Duration.ofSeconds(30);

    private static final Duration NODE_TIMEOUT = Duration.ofSeconds(2);

    /**
     * A replica starts an election at most once every four node timeouts: an election expires after two, and
     * another may start only after twice that (Redis's {@code failover_auth_time}). A node promoted again sooner
     * would not stand until then. The masters' own rule, a vote about the same master at most once every two
     * node timeouts, is within it.
     */
    private static final Duration ELECTION_INTERVAL = NODE_TIMEOUT.multipliedBy(4).plusMillis(200);

    /** Redis drops a manual failover that has not happened within 5 s ({@code CLUSTER_MF_TIMEOUT}). */
    private static final Duration MANUAL_FAILOVER = Duration.ofSeconds(6);

    /** How long a command that changes the cluster, or moves keys, may take on a loaded machine. */
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(10);

    /** How long a {@code MIGRATE} may wait for the target node, in milliseconds. */
    private static final long MIGRATE_TIMEOUT = 5_000;

    private static final Pattern STATE = Pattern.compile("^cluster_state:(\\w+)", Pattern.MULTILINE);

    private static final Pattern SLOTS_OK = Pattern.compile("^cluster_slots_ok:(\\d+)", Pattern.MULTILINE);

    private static final Pattern KNOWN_NODES = Pattern.compile("^cluster_known_nodes:(\\d+)", Pattern.MULTILINE);

    private static final Pattern LINK = Pattern.compile("^master_link_status:(\\w+)", Pattern.MULTILINE);

    private static final Pattern MASTER_OFFSET = Pattern.compile("^master_repl_offset:(\\d+)", Pattern.MULTILINE);

    private static final Pattern REPLICA_OFFSET = Pattern.compile("^slave_repl_offset:(\\d+)", Pattern.MULTILINE);

    private final Path folder;

    /** Each master with its replica, if any, by master index. */
    private final List<Shard> shards;

    /** The master index that serves each slot. */
    private final AtomicIntegerArray owners = new AtomicIntegerArray(SLOTS);

    /** The threads of the kit's own short connections to the nodes (joining them, asking whether they are ok), made once. */
    private final ClientResources resources = DefaultClientResources.builder().ioThreadPoolSize(1).computationThreadPoolSize(1).build();

    /** One {@code redis-server}: its port, its node id once asked, its process while it runs. */
    private static final class Node {

        final int port;

        volatile String id;

        volatile RedisServer server;

        /** When this node's process last won an election, to become master ({@link System#nanoTime()}), or 0. */
        volatile long promotedAt;

        Node(int port) {
            this.port = port;
        }

        String address() {
            return "127.0.0.1:" + port;
        }
    }

    /** A master and its replica ({@code null} without one). A failover swaps the two. */
    private static final class Shard {

        volatile Node master;

        volatile Node replica;

        Shard(Node master, Node replica) {
            this.master = master;
            this.replica = replica;
        }
    }

    private EmbeddedRedisCluster(Path folder, List<Shard> shards) {
        this.folder = folder;
        this.shards = new CopyOnWriteArrayList<>(shards);
        for (int i = 0; i < MASTERS; i++) {
            // a third each: master i from slot i * 16384 / 3 on
            for (int slot = i * SLOTS / MASTERS; slot < (i + 1) * SLOTS / MASTERS; slot++) {
                owners.set(slot, i);
            }
        }
    }

    /** Starts three masters on free ports, joins them and waits for the cluster to be ok. */
    public static EmbeddedRedisCluster start() {
        RuntimeException failure = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            EmbeddedRedisCluster cluster = notStarted(false);
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

    /**
     * Starts three masters and a replica of each, six nodes on free ports. Returns once every node agrees on who
     * is master of which slots and who replicates whom, and every replica's link to its master is up. Another
     * attempt is made only when a port was taken before its node bound it.
     */
    public static EmbeddedRedisCluster startWithReplicas() {
        UncheckedIOException failure = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            EmbeddedRedisCluster cluster = notStarted(true);
            try {
                cluster.form();
                return cluster;
            }
            catch (UncheckedIOException ex) {
                cluster.close();
                failure = ex;
            }
            catch (RuntimeException ex) {
                cluster.close();
                throw ex;
            }
        }
        throw failure;
    }

    private static EmbeddedRedisCluster notStarted(boolean withReplicas) {
        Path folder;
        try {
            folder = Files.createTempDirectory("colorbench-redis-cluster");
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        List<Shard> shards = new ArrayList<>();
        for (int i = 0; i < MASTERS; i++) {
            shards.add(new Shard(new Node(freePortWithFreeBusPort()), withReplicas ? new Node(freePortWithFreeBusPort()) : null));
        }
        return new EmbeddedRedisCluster(folder, shards);
    }

    private void form() {
        for (Node node : allNodes()) {
            startProcess(node);
        }
        Node first = shards.get(0).master;
        for (int i = 0; i < MASTERS; i++) {
            int[] slots = slotsOf(i).stream().toArray();
            int index = i;
            onNode(shards.get(i).master, redis -> {
                redis.sync().clusterAddSlots(slots);
                if (index > 0) {
                    redis.sync().clusterMeet("127.0.0.1", first.port);
                }
                return null;
            });
        }
        for (Shard shard : shards) {
            if (shard.replica != null) {
                // every master met directly, so that each replica soon knows its own
                for (Shard other : shards) {
                    onNode(shard.replica, redis -> redis.sync().clusterMeet("127.0.0.1", other.master.port));
                }
            }
        }
        for (Shard shard : shards) {
            if (shard.replica != null) {
                replicate(shard.replica, shard.master);
            }
        }
        awaitHealthy(READY);
    }

    /** Makes {@code replica} replicate {@code master}, once it has learnt of it from the cluster bus. */
    private void replicate(Node replica, Node master) {
        String masterId = id(master);
        long deadline = System.nanoTime() + READY.toNanos();
        while (true) {
            try {
                onNode(replica, redis -> redis.sync().clusterReplicate(masterId));
                return;
            }
            catch (RuntimeException ex) {
                // "Unknown node" until the handshake with the master is done
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(replica.address() + " could not replicate " + master.address() + " within " + READY, ex);
                }
                sleep(50);
            }
        }
    }

    /** {@code host:port} of each master, by master index (the first holds slot 0). */
    public List<String> nodes() {
        return shards.stream().map(shard -> shard.master.address()).toList();
    }

    /** What to give a module as {@code REDIS_CLUSTER_NODES} (or {@code spring.data.redis.cluster.nodes}): every master, comma-separated. */
    public String clusterNodes() {
        return String.join(",", nodes());
    }

    /** How many masters the cluster has: {@value #MASTERS}, and one more for each {@link #addMaster()}. */
    public int masters() {
        return shards.size();
    }

    /** A {@code redis://} URL of one master by itself, e.g. for {@link RedisCommandStats} (commands sent there as to one server may be refused with {@code MOVED}). */
    public String masterUrl(int master) {
        return url(shards.get(master).master);
    }

    /** The {@code redis://} URL of every master, by master index. */
    public List<String> masterUrls() {
        return IntStream.range(0, masters()).mapToObj(this::masterUrl).toList();
    }

    /**
     * A {@code redis://} URL of one master's replica by itself. It answers reads of its master's slots on a
     * connection that sent {@code READONLY}, and redirects every other command to the master.
     *
     * @throws IllegalStateException when the master has no replica
     */
    public String replicaUrl(int master) {
        return url(replicaOf(master));
    }

    /** Counts what every master executed, summed and by master ({@link ClusterCommandStats}). */
    public ClusterCommandStats stats() {
        return ClusterCommandStats.connect(masterUrls());
    }

    /** The master that serves {@code key}'s slot (hash tags included). */
    public int masterOf(String key) {
        return masterOfSlot(SlotHash.getSlot(key));
    }

    /**
     * Sets {@code key} on the master that owns it, on a connection of its own, as another application would: the instant of the
     * reply ({@link System#nanoTime()}), from which a test times how long a change took to be served.
     */
    public long setOnOwner(String key, String value) {
        RedisClient client = RedisClient.create(masterUrl(masterOf(key)));
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            connection.sync().set(key, value);
            return System.nanoTime();
        }
        finally {
            client.shutdown();
        }
    }

    /** The master that serves {@code slot}. */
    public int masterOfSlot(int slot) {
        if (slot < 0 || slot >= SLOTS) {
            throw new IllegalArgumentException("No slot " + slot);
        }
        return owners.get(slot);
    }

    /**
     * Stops one master at once, as a crash would (its connections are closed), and returns once its port is
     * closed. The others go on serving their slots. Its replica, if it has one, does not take over: see
     * {@link #failoverByStopping} for that.
     */
    public void stopMaster(int master) {
        stop(shards.get(master).master);
    }

    /**
     * Starts a master's stopped nodes again on their ports, with their node ids and slots (from their
     * {@code nodes.conf}) and no data, and waits until the cluster is ok again, all slots covered, on every node.
     * A master back empty is copied empty by its replica. After {@link #failoverByStopping}, the node it starts is
     * the old master, which comes back as the new one's replica and copies it.
     */
    public void startMaster(int master) {
        Shard shard = shards.get(master);
        for (Node node : nodesOf(shard)) {
            if (node.server == null) {
                startProcess(node);
            }
        }
        awaitHealthy(READY);
    }

    /** Whether a master's process is running (it may not yet be serving: see {@link #isHealthy()}). */
    public boolean isRunning(int master) {
        return shards.get(master).master.server != null;
    }

    /**
     * Whether every node is running and agrees with every other: the cluster ok with all 16384 slots ok and all
     * nodes known, each master serving the slots this class says it does ({@link #masterOfSlot}), each replica
     * replicating its master with its link up, and no node flagged failing.
     */
    public boolean isHealthy() {
        return healthProblems().isEmpty();
    }

    /** What keeps {@link #isHealthy()} false, each as a node sees it; empty when it is true. */
    public List<String> healthProblems() {
        try (Probe probe = new Probe()) {
            return problems(probe, true);
        }
    }

    /** Waits until {@link #isHealthy()}, or fails after {@code timeout}. */
    public void awaitHealthy(Duration timeout) {
        await(timeout, true, "ok");
    }

    /**
     * Fails a master over on request, as an operator would: its replica runs {@code CLUSTER FAILOVER}, so the
     * master stops taking writes until the replica has every one of them, and no acknowledged write is lost. Returns
     * once every node agrees that the replica is the master of those slots and the old master its replica, with
     * its link up. From then on {@link #masterUrl} of {@code master} is the promoted node. Back and forth goes at
     * once, but a node is promoted again no sooner than 8.2 s after it last was, as Redis lets a replica stand in an
     * election only that often: such a call waits first.
     *
     * @throws IllegalStateException when the master has no replica, or the failover does not happen within 30 s
     */
    public void failover(int master) {
        Shard shard = shards.get(master);
        Node replica = replicaOf(master);
        requireEveryNodeRunning();
        awaitHealthy(READY);
        awaitElection(replica);
        long deadline = System.nanoTime() + READY.toNanos();
        try (Probe probe = new Probe()) {
            while (!isMasterByItsOwnAccount(probe, replica, MANUAL_FAILOVER)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("The replica " + replica.address() + " of master " + master + " did not take over within " + READY);
                }
            }
        }
        promote(shard);
        replica.promotedAt = System.nanoTime();
        await(READY, true, "agreed on master " + master + "'s failover");
    }

    /** Sends {@code CLUSTER FAILOVER} to the replica and waits up to {@code wait} for it to call itself master. */
    private boolean isMasterByItsOwnAccount(Probe probe, Node replica, Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        try {
            probe.on(replica).clusterFailover(false);
        }
        catch (RuntimeException ex) {
            // a starved node may answer late: whether it started is seen below
            probe.drop(replica);
        }
        while (System.nanoTime() < deadline) {
            try {
                if (probe.on(replica).info("replication").contains("role:master")) {
                    return true;
                }
            }
            catch (RuntimeException ex) {
                probe.drop(replica);
            }
            sleep(20);
        }
        return false;
    }

    /**
     * Fails a master over as a crash would: stops it at once, and lets its replica take over, which it does once the
     * other masters have gone a node timeout (2 s) without an answer and agreed it failed. It first waits until the
     * replica has every write the master took before the call, so that what is lost is known: only writes made
     * while the call runs, as a crash loses what the replica had not yet received. Returns once every running node
     * agrees that the replica is the master of those slots; from then on {@link #masterUrl} of {@code master} is
     * the promoted node. The old master stays stopped: {@link #startMaster} brings it back, as the new master's
     * replica. Spaced like {@link #failover}.
     *
     * @return from the stop until every running node agreed: about 3 to 5 s
     * @throws IllegalStateException when the master has no replica, or the replica does not take over within 30 s
     */
    public Duration failoverByStopping(int master) {
        Shard shard = shards.get(master);
        Node replica = replicaOf(master);
        requireEveryNodeRunning();
        awaitHealthy(READY);
        awaitInSync(shard);
        awaitElection(replica);
        onNode(replica, redis -> redis.sync().configSet("cluster-replica-no-failover", "no"));
        long stopped;
        try {
            stopped = System.nanoTime();
            stop(shard.master);
            promote(shard);
            await(READY, false, "agreed that master " + master + "'s replica took over");
            replica.promotedAt = System.nanoTime();
        }
        finally {
            onNode(replica, redis -> redis.sync().configSet("cluster-replica-no-failover", "yes"));
        }
        return Duration.ofNanos(System.nanoTime() - stopped);
    }

    /** Waits until a master's replica has applied every write the master had taken when the call began. */
    private void awaitInSync(Shard shard) {
        long deadline = System.nanoTime() + READY.toNanos();
        try (Probe probe = new Probe()) {
            long target = offset(probe.on(shard.master).info("replication"), MASTER_OFFSET);
            while (offset(probe.on(shard.replica).info("replication"), REPLICA_OFFSET) < target) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("The replica " + shard.replica.address() + " did not reach its master's offset " + target + " within " + READY);
                }
                sleep(10);
            }
        }
    }

    private static long offset(String info, Pattern pattern) {
        String offset = find(pattern, info);
        return (offset == null) ? -1 : Long.parseLong(offset);
    }

    /** Swaps a master and its replica in this class's account, as a failover does. */
    private void promote(Shard shard) {
        Node old = shard.master;
        shard.master = shard.replica;
        shard.replica = old;
    }

    /** Waits until {@code replica} may stand in an election again. */
    private static void awaitElection(Node replica) {
        if (replica.promotedAt != 0) {
            long wait = replica.promotedAt + ELECTION_INTERVAL.toNanos() - System.nanoTime();
            if (wait > 0) {
                sleep(TimeUnit.NANOSECONDS.toMillis(wait) + 1);
            }
        }
    }

    /**
     * Moves one slot, with its keys, to another master, the way {@code redis-cli --cluster reshard} does: the
     * target imports it, the source migrates it, its keys go over with {@code MIGRATE} a hundred at a time, and
     * every master is told the new owner with {@code CLUSTER SETSLOT ... NODE} (the target first, then the
     * source). Meanwhile a client's command on a key already moved is redirected with {@code ASK}. Returns once
     * every node, replicas included, agrees on the slot's new owner; from then on {@link #masterOfSlot} says so.
     * Moving a slot to the master that has it does nothing.
     *
     * @throws IllegalArgumentException when it is the source's last slot, unless {@link #keepEmptyMaster} was asked of it:
     *         Redis makes an emptied master a replica by default
     */
    public void moveSlot(int slot, int toMaster) {
        if (masterOfSlot(slot) == toMaster) {
            return;
        }
        beginMove(slot, toMaster);
        endMove(slot, toMaster);
    }

    /**
     * The first half of {@link #moveSlot}: the target imports the slot, the source migrates it, and its keys go over. The
     * slot stays the source's: a command on one of its keys is redirected with {@code ASK} to the target, where the key
     * now is, until {@link #endMove} tells every master the new owner.
     *
     * @throws IllegalArgumentException when it is the source's last slot (unless {@link #keepEmptyMaster} was asked of it), or
     *         the target has it already
     */
    public void beginMove(int slot, int toMaster) {
        int from = masterOfSlot(slot);
        Shard target = shards.get(toMaster);
        if (from == toMaster) {
            throw new IllegalArgumentException("Slot " + slot + " is master " + toMaster + "'s already");
        }
        if (slotsOf(from).cardinality() == 1 && !keepsEmptyMaster(shards.get(from).master)) {
            throw new IllegalArgumentException("Slot " + slot + " is master " + from + "'s last: Redis would make it a replica of master " + toMaster);
        }
        requireEveryNodeRunning();
        awaitHealthy(READY);
        Node source = shards.get(from).master;
        String sourceId = id(source);
        String targetId = id(target.master);
        onNode(target.master, ADMIN_TIMEOUT, redis -> redis.sync().clusterSetSlotImporting(slot, sourceId));
        onNode(source, ADMIN_TIMEOUT, redis -> {
            redis.sync().clusterSetSlotMigrating(slot, targetId);
            List<String> keys;
            while (!(keys = redis.sync().clusterGetKeysInSlot(slot, 100)).isEmpty()) {
                redis.sync().migrate("127.0.0.1", target.master.port, 0, MIGRATE_TIMEOUT, MigrateArgs.Builder.keys(keys));
            }
            return null;
        });
    }

    /**
     * The second half of {@link #moveSlot}, after {@link #beginMove}: every master is told the slot's new owner (the target
     * first, then the source). Returns once every node, replicas included, agrees on it.
     */
    public void endMove(int slot, int toMaster) {
        int from = masterOfSlot(slot);
        Node source = shards.get(from).master;
        Node target = shards.get(toMaster).master;
        String targetId = id(target);
        List<Node> told = new ArrayList<>(List.of(target, source));
        shards.stream().map(shard -> shard.master).filter(master -> !told.contains(master)).forEach(told::add);
        for (Node master : told) {
            onNode(master, ADMIN_TIMEOUT, redis -> redis.sync().clusterSetSlotNode(slot, targetId));
        }
        owners.set(slot, toMaster);
        await(READY, true, "agreed on slot " + slot + "'s move to master " + toMaster);
    }

    /**
     * Has master {@code master} stay a master when its last slot is moved away ({@code cluster-allow-replica-migration no}), as
     * an operator who drains a master before removing it has it: {@link #moveSlot} may then move its last slot. Returns false
     * where the server has no such setting, whose emptied master turns into a replica.
     */
    public boolean keepEmptyMaster(int master) {
        try {
            onNode(shards.get(master).master, ADMIN_TIMEOUT, redis -> redis.sync().configSet("cluster-allow-replica-migration", "no"));
            return true;
        }
        catch (RedisCommandExecutionException unknownSetting) {
            return false;
        }
    }

    private boolean keepsEmptyMaster(Node master) {
        return "no".equals(onNode(master, ADMIN_TIMEOUT, redis -> redis.sync().configGet("cluster-allow-replica-migration"))
                .get("cluster-allow-replica-migration"));
    }

    /**
     * Adds a master with no slots and no replica, on free ports, and returns its index ({@link #masters()} - 1). It
     * meets every node itself. Returns once every node knows it and it knows every slot's owner; {@link #moveSlot}
     * then gives it slots. Like the others, it may be stopped and started again.
     */
    public int addMaster() {
        requireEveryNodeRunning();
        awaitHealthy(READY);
        UncheckedIOException failure = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Node node = new Node(freePortWithFreeBusPort());
            try {
                startProcess(node);
            }
            catch (UncheckedIOException ex) {
                failure = ex;
                continue;
            }
            for (Node other : allNodes()) {
                onNode(node, redis -> redis.sync().clusterMeet("127.0.0.1", other.port));
            }
            shards.add(new Shard(node, null));
            await(READY, true, "joined by a new master");
            return shards.size() - 1;
        }
        throw failure;
    }

    /** Waits until {@link #problems} finds none, or fails after {@code timeout} with what it found last. */
    private void await(Duration timeout, boolean everyNodeRunning, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Probe probe = new Probe()) {
            List<String> problems;
            while (!(problems = problems(probe, everyNodeRunning)).isEmpty()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("The Redis cluster on " + nodes() + " was not " + what + " within " + timeout + ": "
                            + String.join("; ", problems));
                }
                sleep(50);
            }
        }
    }

    /**
     * What keeps the nodes from agreeing with this class's account of the cluster, each as a node sees it; empty
     * when they all agree. A stopped node is a problem only when {@code everyNodeRunning}.
     */
    private List<String> problems(Probe probe, boolean everyNodeRunning) {
        List<String> problems = new ArrayList<>();
        List<Node> all = allNodes();
        for (Node node : all) {
            if (node.server == null) {
                if (everyNodeRunning) {
                    problems.add(node.address() + " stopped");
                }
                continue;
            }
            try {
                RedisCommands<String, String> redis = probe.on(node);
                String info = redis.clusterInfo();
                if (!"ok".equals(find(STATE, info)) || !String.valueOf(SLOTS).equals(find(SLOTS_OK, info))
                        || !String.valueOf(all.size()).equals(find(KNOWN_NODES, info))) {
                    problems.add(node.address() + " state " + find(STATE, info) + ", slots ok " + find(SLOTS_OK, info) + ", known nodes "
                            + find(KNOWN_NODES, info));
                    continue;
                }
                problems.addAll(disagreements(node, ClusterPartitionParser.parse(redis.clusterNodes()), probe));
                if (isReplica(node) && masterOf(node).server != null && !"up".equals(find(LINK, redis.info("replication")))) {
                    problems.add(node.address() + " has its link to its master down");
                }
            }
            catch (RuntimeException ex) {
                probe.drop(node);
                problems.add(node.address() + " " + ex.getClass().getSimpleName());
            }
        }
        return problems;
    }

    /** Where {@code view}, {@code node}'s {@code CLUSTER NODES}, differs from this class's account of the running nodes. */
    private List<String> disagreements(Node node, Partitions view, Probe probe) {
        List<String> found = new ArrayList<>();
        for (int i = 0; i < shards.size(); i++) {
            Shard shard = shards.get(i);
            Node master = shard.master;
            if (master.server != null) {
                RedisClusterNode seen = view.getPartitionByNodeId(id(master, probe));
                if (seen == null || !seen.getRole().isUpstream() || seen.is(NodeFlag.FAIL) || seen.is(NodeFlag.EVENTUAL_FAIL)
                        || seen.is(NodeFlag.HANDSHAKE)) {
                    found.add(node.address() + " sees " + master.address() + " as " + (seen == null ? "unknown" : seen.getFlags()) + ", not master " + i);
                    continue;
                }
                BitSet slots = new BitSet(SLOTS);
                seen.getSlots().forEach(slots::set);
                if (!slots.equals(slotsOf(i))) {
                    found.add(node.address() + " sees master " + i + " at " + master.address() + " with " + slots.cardinality() + " slots, not "
                            + slotsOf(i).cardinality());
                }
            }
            Node replica = shard.replica;
            if (replica != null && replica.server != null && master.server != null) {
                RedisClusterNode seen = view.getPartitionByNodeId(id(replica, probe));
                if (seen == null || !seen.getRole().isReplica() || !id(master, probe).equals(seen.getSlaveOf())) {
                    found.add(node.address() + " sees " + replica.address() + " as " + (seen == null ? "unknown" : seen.getFlags() + " of " + seen.getSlaveOf())
                            + ", not master " + i + "'s replica");
                }
            }
        }
        return found;
    }

    /** The slots this class says master {@code master} serves. */
    private BitSet slotsOf(int master) {
        BitSet slots = new BitSet(SLOTS);
        for (int slot = 0; slot < SLOTS; slot++) {
            if (owners.get(slot) == master) {
                slots.set(slot);
            }
        }
        return slots;
    }

    private boolean isReplica(Node node) {
        return shards.stream().anyMatch(shard -> shard.replica == node);
    }

    private Node masterOf(Node replica) {
        return shards.stream().filter(shard -> shard.replica == replica).findFirst().orElseThrow().master;
    }

    private Node replicaOf(int master) {
        Node replica = shards.get(master).replica;
        if (replica == null) {
            throw new IllegalStateException("Master " + master + " has no replica: start the cluster with startWithReplicas()");
        }
        return replica;
    }

    /** A change starts from a cluster whose every node runs: waiting for a stopped one to agree would only time out. */
    private void requireEveryNodeRunning() {
        for (Node node : allNodes()) {
            if (node.server == null) {
                throw new IllegalStateException("The node on " + node.address() + " is stopped: start it first (startMaster)");
            }
        }
    }

    /** Every node, masters first, by master index, then their replicas. */
    private List<Node> allNodes() {
        List<Node> all = new ArrayList<>();
        shards.forEach(shard -> all.add(shard.master));
        shards.stream().filter(shard -> shard.replica != null).forEach(shard -> all.add(shard.replica));
        return all;
    }

    private static List<Node> nodesOf(Shard shard) {
        return (shard.replica == null) ? List.of(shard.master) : List.of(shard.master, shard.replica);
    }

    /** A node's id, asked once: it keeps it across restarts, in its {@code nodes.conf}. */
    private String id(Node node) {
        if (node.id == null) {
            node.id = onNode(node, redis -> redis.sync().clusterMyId());
        }
        return node.id;
    }

    private String id(Node node, Probe probe) {
        if (node.id == null) {
            node.id = probe.on(node).clusterMyId();
        }
        return node.id;
    }

    private static String url(Node node) {
        return "redis://" + node.address();
    }

    /** Stops a node's process at once and waits until its port is closed. */
    private static void stop(Node node) {
        try {
            if (node.server != null) {
                node.server.stop();
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        finally {
            node.server = null;
        }
        // the process is killed, not waited for: until it is gone, it may still answer
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (isListening(node.port)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("The Redis cluster node on port " + node.port + " still listens 5 s after it was stopped");
            }
            sleep(10);
        }
    }

    private static boolean isListening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            return true;
        }
        catch (IOException ex) {
            return false;
        }
    }

    private void startProcess(Node node) {
        try {
            RedisServer server = EmbeddedRedis.builder(EmbeddedRedis.configuredExecutable())
                    .port(node.port)
                    .bind("127.0.0.1")
                    .setting("dir " + folder)
                    .setting("cluster-enabled yes")
                    .setting("cluster-config-file " + folder.resolve("nodes-" + node.port + ".conf"))
                    .setting("cluster-node-timeout " + NODE_TIMEOUT.toMillis())
                    .setting("cluster-require-full-coverage no")
                    // only this class promotes a replica; and a replica cut off for long may still be promoted
                    .setting("cluster-replica-no-failover yes")
                    .setting("cluster-replica-validity-factor 0")
                    // a replica's copy goes over the socket at once, never through a file
                    .setting("repl-diskless-sync yes")
                    .setting("repl-diskless-sync-delay 0")
                    .setting("repl-diskless-load swapdb")
                    .setting("save \"\"")
                    .setting("appendonly no")
                    .onShutdownForceStop(true)
                    .build();
            server.start();
            node.server = server;
            node.promotedAt = 0;
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Could not start a cluster node of embedded Redis on port " + node.port, ex);
        }
    }

    /** Runs {@code action} on a short-lived connection of its own to one node, which must answer within a second. */
    private <T> T onNode(Node node, Function<StatefulRedisConnection<String, String>, T> action) {
        return onNode(node, Duration.ofSeconds(1), action);
    }

    private <T> T onNode(Node node, Duration timeout, Function<StatefulRedisConnection<String, String>, T> action) {
        RedisURI uri = RedisURI.create(url(node));
        uri.setTimeout(timeout);
        RedisClient client = RedisClient.create(resources, uri);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return action.apply(connection);
        }
        finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        }
    }

    /**
     * The connections one wait polls the nodes on, each opened on first use and kept until the wait ends, so that
     * polling a loaded machine every 50 ms does not also open a connection each time. A connection that failed is
     * dropped and opened again next time; none reconnects by itself, so a stopped node fails at once.
     */
    private final class Probe implements AutoCloseable {

        private final Map<Node, RedisClient> clients = new HashMap<>();

        private final Map<Node, StatefulRedisConnection<String, String>> connections = new HashMap<>();

        RedisCommands<String, String> on(Node node) {
            StatefulRedisConnection<String, String> connection = connections.get(node);
            if (connection == null) {
                RedisClient client = clients.computeIfAbsent(node, n -> {
                    RedisURI uri = RedisURI.create(url(n));
                    uri.setTimeout(Duration.ofSeconds(1));
                    RedisClient created = RedisClient.create(resources, uri);
                    created.setOptions(ClientOptions.builder().autoReconnect(false).build());
                    return created;
                });
                connection = client.connect();
                connections.put(node, connection);
            }
            return connection.sync();
        }

        void drop(Node node) {
            StatefulRedisConnection<String, String> connection = connections.remove(node);
            if (connection != null) {
                connection.close();
            }
        }

        @Override
        public void close() {
            connections.values().forEach(StatefulRedisConnection::close);
            clients.values().forEach(client -> client.shutdown(Duration.ZERO, Duration.ofSeconds(1)));
        }
    }

    /** Stops every node and removes the folder with their {@code nodes.conf}. */
    @Override
    public void close() {
        for (Node node : allNodes()) {
            try {
                stop(node);
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
