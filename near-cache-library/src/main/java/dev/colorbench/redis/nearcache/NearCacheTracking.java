package dev.colorbench.redis.nearcache;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.ReadFrom;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TrackingArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.push.PushMessage;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.ClusterPartitionParser;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The connections on which Redis tells the application which keys changed, one per server that holds
 * them ({@link TrackedServer}: the single Redis, or each master of a Redis Cluster), and
 * the {@link NearCache}s whose local copies are only good while every one of them tracks. One per
 * application, made by {@link NearCacheAutoConfiguration}; the application makes its caches with
 * {@link #newCache}.
 *
 * <p><b>The mechanism: {@code CLIENT TRACKING ON BCAST PREFIX ...} on a dedicated RESP3 connection</b>,
 * whose invalidations arrive as push messages to a Lettuce {@code PushListener}. In broadcast mode Redis
 * sends an invalidation for every write to a key under the prefixes, whoever wrote it and whichever
 * connection read it, so the reads themselves go over the application's ordinary shared connection and
 * need no tracking of their own, and Redis keeps no table of the keys this client read. Redis sends the
 * invalidation in the same pass of its event loop as the writer's reply.
 *
 * <p><b>Tracking is active</b> only while Redis has answered {@code OK} to {@code CLIENT TRACKING} on
 * every tracked server's connection as it is now, until the next time one of them drops. Then each
 * cache answers from a new, empty copy; before and after, every read goes to Redis, keeping nothing. A
 * drop may have taken invalidations with it, so the copies are discarded in the event that reports the
 * drop; when Lettuce has reconnected, tracking is asked for again, and new copies start once that
 * server's {@code OK} is in and every other server still tracks. While a server's heartbeat is late, the
 * copies are kept but do not answer ({@link TrackedServer}).
 *
 * <p><b>Setups it refuses at start-up</b>, because the bound cannot hold in them: reads from replicas
 * (Lettuce's {@code ReadFrom} other than the upstream, or {@code spring.data.redis.masterreplica}: a
 * replica lags behind the master whose pushes the copy follows, so a value read from it can be older
 * than an invalidation already handled), no prefixes, and a client other than Lettuce.
 *
 * <p><b>Under Redis Sentinel</b> the tracking connection asks a Sentinel for the master each time it connects, as the
 * application's data connection does. Every {@code topology-refresh} the library asks a Sentinel again; when it names another
 * address or run id than the tracked server's, the copies go and the tracking connection moves. A former master keeps its
 * open connections until the Sentinels reconfigure it; the canary's run ids keep the copies off until both connections meet.
 *
 * <p><b>On a Redis Cluster</b> each master reports the writes to its own slots only, so there is one
 * tracking connection per master, each opened with a standalone {@link RedisClient} on the cluster client's
 * resources and options, to the node's URI. A master that owns no slot yet is tracked too: it may be importing
 * one, whose keys a read reaches through {@code ASK} before the slot is its own. The library keeps the topology current
 * itself, whatever Lettuce's refresh settings: every {@code topology-refresh} it asks one tracked master
 * for {@code CLUSTER NODES}, and when the masters are others than the ones it tracks (a
 * failover, a master added or removed, slots moved onto a new master), it refreshes Lettuce's topology,
 * discards the copies (a value read from an untracked master may be stale), tracks the new set, and
 * starts new copies once every master tracks. A read Lettuce routes to a master not tracked yet is
 * therefore kept at most until the next refresh. It listens to no event bus, which other clients share.
 * Each master's canary is a key in a slot it owns, placed again when the check finds that slot gone from it.
 */
public final class NearCacheTracking implements SmartLifecycle, TrackedServer.Events {

    private static final Logger log = LoggerFactory.getLogger(NearCacheTracking.class);

    /** Turned off, the caches wait on no shared read, which only a copy makes: Lettuce's default, for want of the client's. */
    private static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(60);

    /**
     * Failed topology checks in a row after which the copies stop answering, until a check succeeds: a change of a cluster's
     * masters then goes unseen for at most this many {@code topology-refresh} periods, and one more.
     */
    static final int TOPOLOGY_FAILURES_TOLERATED = 3;

    /** Hash tags tried to put a canary in a slot a master owns: a master with one slot of 16,384 gets one within this many, bar 1 in e^64. */
    private static final int CANARY_TAGS_TRIED = 1 << 20;

    /** Lettuce's whenever the near cache is on; turned off, any client's. */
    private final RedisConnectionFactory connectionFactory;

    private final NearCacheProperties properties;

    private final List<byte[]> prefixes;

    private final TrackedServer.Settings settings;

    private final NearCache.Settings cacheSettings;

    /** Every cache made here and not closed: each gets every invalidation, and a new copy each session. */
    private final List<NearCache<?>> caches = new CopyOnWriteArrayList<>();

    private final List<Consumer<NearCache<?>>> newCacheListeners = new CopyOnWriteArrayList<>();

    private final List<Consumer<NearCache<?>>> closedCacheListeners = new CopyOnWriteArrayList<>();

    private final List<Consumer<TrackedServer>> newServerListeners = new CopyOnWriteArrayList<>();

    private final List<Consumer<TrackedServer>> closedServerListeners = new CopyOnWriteArrayList<>();

    private final AtomicLong invalidations = new AtomicLong();

    private final AtomicLong sessions = new AtomicLong();

    private final AtomicLong drops = new AtomicLong();

    /** Of the drops, those for a canary whose invalidation did not arrive; the others are in connectionDrops, so that each meter only rises. */
    private final AtomicLong undelivered = new AtomicLong();

    /** Of the drops, those for a tracking connection lost or silent, or a cluster's masters changed. */
    private final AtomicLong connectionDrops = new AtomicLong();

    /** This instance's canary key: the first prefix, the mark and an id of this instance's, so that instances sharing a Redis never share one. */
    private final byte[] canaryKey;

    /** What starts every instance's canary key: the first prefix and the mark. */
    private final byte[] canaryMark;

    private final AtomicLong lates = new AtomicLong();

    private final AtomicLong topologyChanges = new AtomicLong();

    /** Topology checks of a cluster that failed: no answer within the refresh period, an error, or an unreadable answer. */
    private final AtomicLong topologyCheckFailures = new AtomicLong();

    /** Failed topology checks in a row: only touched by the scheduler's thread. */
    private int topologyFailuresInARow;

    /** Whether the last {@value #TOPOLOGY_FAILURES_TOLERATED} topology checks failed, or more: the copies do not answer; under this object's lock. */
    private volatile boolean topologyUnknown;

    /** Whether every server tracks, and the caches have copies; changed under this object's lock. */
    private volatile boolean active;

    /** Whether the copies answer: active, and no server's heartbeat late; changed under this object's lock. */
    private volatile boolean serving;

    private volatile boolean running;

    /** Why the copies were last dropped, for the health indicator. */
    private volatile String lastDrop;

    /** The servers tracked now, by address on a cluster; replaced whole, under this object's lock, when the masters change. */
    private volatile Map<String, TrackedServer> servers = Map.of();

    /** Heartbeats and timers: never blocked. */
    private volatile ScheduledExecutorService scheduler;

    /** The address a Sentinel named when it last named the tracked server: only touched on the scheduler's thread. */
    private String sentinelAddress;

    /** A Sentinel, asked for the master under Sentinel: opened on the connector's thread, closed by {@link #stop()}. */
    private volatile StatefulRedisSentinelConnection<String, String> sentinel;

    /** Opening connections, which blocks. */
    private ExecutorService connector;

    /** Only touched by the connector's thread. */
    private int topologyAttempts;

    /**
     * Checks the setup and the properties, and refuses, naming the setting, what the staleness bound
     * cannot hold in. Turned off ({@code redis.near-cache.enabled=false}), it checks nothing and takes any
     * client: the caches then read Redis each time.
     *
     * @throws InvalidConfigurationPropertyValueException for a property out of its range
     * @throws NearCacheSetupException for a setup of the Redis client that the near cache cannot track
     */
    public NearCacheTracking(RedisConnectionFactory connectionFactory, NearCacheProperties properties) {
        this.connectionFactory = connectionFactory;
        this.properties = properties;
        if (!properties.isEnabled()) {
            // turned off, nothing is tracked or kept, so neither the client nor the other properties matter: an application on
            // Jedis, or one whose near cache settings are incomplete, starts; each read is one MGET, on whichever client it has
            this.prefixes = List.of();
            this.settings = null;
            Duration commandTimeout = (connectionFactory instanceof LettuceConnectionFactory lettuce)
                    ? lettuce.getClientConfiguration().getCommandTimeout() : DEFAULT_COMMAND_TIMEOUT;
            this.cacheSettings = new NearCache.Settings(prefixes, 1, Duration.ofMinutes(10), false, readTimeout(properties, commandTimeout));
            this.canaryKey = null;
            this.canaryMark = null;
            return;
        }
        if (!(connectionFactory instanceof LettuceConnectionFactory lettuce)) {
            throw new NearCacheSetupException("A near cache needs Lettuce (RESP3 push messages), not " + connectionFactory.getClass().getName() + ".",
                    "Use Lettuce, Spring Boot's default client (spring.data.redis.client-type=lettuce, or no connection factory of the"
                            + " application's own on another client), or turn the near cache off with redis.near-cache.enabled=false.");
        }
        properties.validate();
        refuseUntrackableSetups(lettuce);
        this.prefixes = properties.getPrefixes().stream().map(prefix -> prefix.getBytes(StandardCharsets.UTF_8)).toList();
        this.canaryMark = (properties.getPrefixes().get(0) + TrackedServer.CANARY_MARK).getBytes(StandardCharsets.UTF_8);
        this.canaryKey = (properties.getPrefixes().get(0) + TrackedServer.CANARY_MARK + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8);
        TrackingArgs tracking = TrackingArgs.Builder.enabled().bcast().prefixes(properties.getPrefixes().toArray(String[]::new));
        Duration commandTimeout = lettuce.getClientConfiguration().getCommandTimeout();
        this.settings = new TrackedServer.Settings(tracking, properties.getHeartbeat(), properties.getHeartbeatTimeout(), commandTimeout);
        this.cacheSettings = new NearCache.Settings(prefixes, properties.maximumBytes(), properties.getTimeToLive(), properties.isReadTtl(),
                readTimeout(properties, commandTimeout));
    }

    /**
     * How long a read waits for Redis: the near cache's read time-out, or the client's command time-out if shorter; turned off,
     * where nothing was checked, a read time-out out of range is left out.
     */
    private static Duration readTimeout(NearCacheProperties properties, Duration commandTimeout) {
        Duration read = properties.getReadTimeout();
        Duration command = (commandTimeout == null) ? DEFAULT_COMMAND_TIMEOUT : commandTimeout;
        return (read == null || read.isNegative() || read.isZero() || command.compareTo(read) < 0) ? command : read;
    }

    private static void refuseUntrackableSetups(LettuceConnectionFactory lettuce) {
        ReadFrom readFrom = lettuce.getClientConfiguration().getReadFrom().orElse(null);
        if (readFrom != null && readFrom.getClass() != ReadFrom.UPSTREAM.getClass()) {
            throw new NearCacheSetupException("A near cache reads only from the servers it tracks, the masters, but Lettuce's ReadFrom is "
                    + readFrom.getClass().getSimpleName() + ": a replica lags behind the master whose invalidations the copy follows, and a value read from it could"
                    + " be kept stale for good.", "Remove the ReadFrom from the LettuceClientConfiguration (spring.data.redis.lettuce.read-from,"
                    + " a LettuceClientConfigurationBuilderCustomizer, or spring.data.redis.masterreplica), or turn the near cache off with"
                    + " redis.near-cache.enabled=false");
        }
    }

    /**
     * A near cache named {@code name} (its meters' {@code cache} tag) of the keys under the tracked
     * prefixes, whose values {@code decoder} makes of the bytes Redis holds. Make each once, at start-up,
     * and {@link NearCache#close() close} it when it is no longer read: every open cache gets every
     * invalidation.
     */
    public <V> NearCache<V> newCache(String name, ValueDecoder<V> decoder) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("A near cache needs a name, for its meters");
        }
        NearCache<V> cache = new NearCache<>(name, this, connectionFactory, decoder, cacheSettings);
        synchronized (this) {
            if (caches.stream().anyMatch(other -> other.name().equals(name))) {
                throw new IllegalArgumentException("There is a near cache named '" + name + "' already");
            }
            caches.add(cache);
            shareMemory();
            if (active) {
                cache.begin();
                cache.serve(serving);
            }
        }
        newCacheListeners.forEach(listener -> listener.accept(cache));
        return cache;
    }

    /**
     * {@code redis.near-cache.maximum-memory} is the budget of all caches together: each open cache gets an equal share, and
     * a cache that opens makes the others evict down to theirs. Caffeine bounds one cache, not several, and an equal share
     * keeps the sum within the budget whatever caches an application opens. Under this object's lock.
     */
    private void shareMemory() {
        long share = Math.max(1, cacheSettings.maximumBytes() / Math.max(1, caches.size()));
        caches.forEach(open -> open.share(share));
    }

    /** The properties it was made with: the cache manager checks its caches' key prefixes against them. */
    NearCacheProperties properties() {
        return properties;
    }

    /** A closed cache: no more invalidations, no more copies. */
    void forget(NearCache<?> cache) {
        boolean removed;
        synchronized (this) {
            removed = caches.remove(cache);
            shareMemory();
        }
        if (removed) {
            closedCacheListeners.forEach(listener -> listener.accept(cache));
        }
    }

    /** This instance's canary key, or null when the near cache is off: its invalidations raise a stripe's generation too. */
    String canaryKey() {
        return (canaryKey == null) ? null : new String(canaryKey, StandardCharsets.UTF_8);
    }

    /** Each tracked server's canary key now, by name; a cluster's master that owns no slot has none. */
    Map<String, String> canaryKeys() {
        Map<String, String> keys = new LinkedHashMap<>();
        servers.values().forEach(server -> {
            byte[] key = server.canaryKey();
            keys.put(server.name(), (key == null) ? null : new String(key, StandardCharsets.UTF_8));
        });
        return keys;
    }

    /** Called with every server tracked from now on: for the meters. */
    void onNewServer(Consumer<TrackedServer> listener) {
        newServerListeners.add(listener);
    }

    /** Called with every server no longer tracked from now on: for the meters. */
    void onClosedServer(Consumer<TrackedServer> listener) {
        closedServerListeners.add(listener);
    }

    /** The servers tracked now. */
    Collection<TrackedServer> trackedServers() {
        return servers.values();
    }

    /** A server begins to be tracked: the listeners hear of it, then its connection opens. */
    private void started(TrackedServer server) {
        newServerListeners.forEach(listener -> listener.accept(server));
        server.start();
    }

    /** A server is tracked no more: its connection closes, then the listeners hear of it. */
    private void closed(TrackedServer server) {
        server.close();
        closedServerListeners.forEach(listener -> listener.accept(server));
    }

    /** Called with every cache made from now on: for the meters. */
    void onNewCache(Consumer<NearCache<?>> listener) {
        newCacheListeners.add(listener);
    }

    /** Called with every cache closed from now on: for the meters. */
    void onClosedCache(Consumer<NearCache<?>> listener) {
        closedCacheListeners.add(listener);
    }

    /** The caches open now. */
    public List<NearCache<?>> caches() {
        return List.copyOf(caches);
    }

    /** Whether the caches answer from their copies: every server confirmed tracking on its connection as it is now, and answers its heartbeat. */
    public boolean isActive() {
        return serving;
    }

    /** Whether the near cache is turned on ({@code redis.near-cache.enabled}); off, every read goes to Redis. */
    public boolean isEnabled() {
        return properties.isEnabled();
    }

    /** Invalidation messages handled so far, from any server, of one key, several, or all (a flush). */
    public long invalidations() {
        return invalidations.get();
    }

    /** How many times tracking became active: once each time every server had confirmed it on its connection. */
    public long sessions() {
        return sessions.get();
    }

    /** How many times the copies were dropped because a tracking connection dropped or went silent, or a canary's invalidation did not arrive. */
    public long drops() {
        return drops.get();
    }

    /** Of the {@link #drops()}, how many were for a canary whose invalidation did not arrive on the tracking connection (delivery lost, or another server). */
    public long undelivered() {
        return undelivered.get();
    }

    /** Of the {@link #drops()}, how many were for a tracking connection lost or silent, or a cluster's masters changed. */
    public long connectionDrops() {
        return connectionDrops.get();
    }

    /** How many times a tracking connection's heartbeat was late, and the copies stopped answering until it came. */
    public long lates() {
        return lates.get();
    }

    /** How many times a cluster's masters changed, as the library saw them. */
    public long topologyChanges() {
        return topologyChanges.get();
    }

    /** How many topology checks of a cluster failed: no answer within {@code topology-refresh}, an error, or an unreadable answer. */
    public long topologyCheckFailures() {
        return topologyCheckFailures.get();
    }

    /** Why the copies were last dropped, or null. */
    public String lastDrop() {
        return lastDrop;
    }

    /** The servers tracked now, by name ({@code Redis}, or {@code master host:port}), each with whether it tracks and answers in time. */
    public Map<String, Boolean> servers() {
        Map<String, Boolean> tracking = new LinkedHashMap<>();
        servers.values().forEach(server -> tracking.put(server.name(), server.isCurrent()));
        return tracking;
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        if (!properties.isEnabled()) {
            log.info("Near cache: turned off (redis.near-cache.enabled=false); every read goes to Redis");
            return;
        }
        AbstractRedisClient client = ((LettuceConnectionFactory) connectionFactory).getRequiredNativeClient();
        scheduler = Executors.newSingleThreadScheduledExecutor(daemon("near-cache-heartbeat"));
        connector = Executors.newSingleThreadExecutor(daemon("near-cache-connect"));
        topologyAttempts = 0;
        topologyFailuresInARow = 0;
        topologyUnknown = false;
        sentinelAddress = null;
        if (client instanceof RedisClusterClient cluster) {
            execute(() -> trackMasters(cluster));
            long period = properties.getTopologyRefresh().toMillis();
            scheduler.scheduleWithFixedDelay(() -> checkTopology(cluster), period, period, TimeUnit.MILLISECONDS);
        }
        else if (client instanceof RedisClient redis) {
            // the application's own client: its URI, password, TLS, timeouts and back-off; under Sentinel it asks a Sentinel for
            // the master each time it connects, as the application's data connection does
            TrackedServer server = new TrackedServer("Redis", redis, false, scheduler, connector, settings, this, canaryKey, new DataPath(false));
            servers = Map.of("Redis", server);
            started(server);
            if (((LettuceConnectionFactory) connectionFactory).isRedisSentinelAware()) {
                String master = ((LettuceConnectionFactory) connectionFactory).getSentinelConfiguration().getMaster().getName();
                long period = properties.getTopologyRefresh().toMillis();
                scheduler.scheduleWithFixedDelay(() -> checkSentinel(redis, master), period, period, TimeUnit.MILLISECONDS);
            }
        }
        else {
            throw new NearCacheSetupException("A near cache needs a standalone Redis or a Redis Cluster, not " + client.getClass().getName() + ".",
                    "Point spring.data.redis at a standalone Redis or a Redis Cluster, or turn the near cache off with redis.near-cache.enabled=false.");
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /** The masters as the cluster client knows them at start; until the cluster answers, retried on the back-off. */
    private void trackMasters(RedisClusterClient cluster) {
        if (!running) {
            return;
        }
        Map<String, Master> masters;
        try {
            masters = masters(cluster.getPartitions(), null);
        }
        catch (RuntimeException ex) {
            masters = Map.of();
        }
        if (masters.isEmpty()) {
            Duration delay = cluster.getResources().reconnectDelay().createDelay(++topologyAttempts);
            log.debug("Near cache: no Redis Cluster topology yet; next attempt in {} ms", delay.toMillis());
            later(() -> trackMasters(cluster), delay);
            return;
        }
        followMasters(cluster, masters);
    }

    /**
     * On the scheduler's thread, every topology refresh: {@code CLUSTER NODES} on one tracked master's
     * connection, without waiting; if the masters differ from those tracked, Lettuce's
     * topology is refreshed and the new set followed, on the connector's thread.
     */
    private void checkTopology(RedisClusterClient cluster) {
        if (!running) {
            return;
        }
        StatefulRedisConnection<byte[], byte[]> asked = servers.values().stream().map(TrackedServer::trackingConnection)
                .filter(connection -> connection != null).findFirst().orElse(null);
        if (asked == null) {
            return; // nothing tracks: the copies are off anyway, and each reconnect tracks again
        }
        // the answer is read on the scheduler's thread, not on Lettuce's event loop; one that does not come within the period fails
        asked.async().clusterNodes().toCompletableFuture().orTimeout(properties.getTopologyRefresh().toMillis(), TimeUnit.MILLISECONDS)
                .whenCompleteAsync((nodes, error) -> topologyAnswered(cluster, nodes, error), scheduler);
    }

    /** On the scheduler's thread: a topology check's answer, or why there is none. */
    private void topologyAnswered(RedisClusterClient cluster, String nodes, Throwable error) {
        if (!running) {
            return;
        }
        Map<String, Master> masters;
        try {
            if (error != null || nodes == null) {
                throw new IllegalStateException("CLUSTER NODES failed: " + (error == null ? "no answer" : error), error);
            }
            masters = masters(ClusterPartitionParser.parse(nodes), cluster);
            if (masters.isEmpty()) {
                throw new IllegalStateException("CLUSTER NODES named no master");
            }
        }
        catch (RuntimeException ex) {
            topologyCheckFailed(ex);
            return;
        }
        topologyChecked();
        placeCanaries(masters);
        if (!masters.keySet().equals(servers.keySet())) {
            execute(() -> {
                try {
                    cluster.refreshPartitions();
                }
                catch (RuntimeException ex) {
                    log.debug("Near cache: Lettuce's topology refresh failed ({})", ex.toString());
                }
                followMasters(cluster, masters);
            });
        }
    }

    /**
     * On the scheduler's thread, every topology refresh under Sentinel: is the tracked server the master a Sentinel names now
     * ({@code SENTINEL MASTER}'s run id against the tracking connection's {@code INFO server})? After a failover the former master
     * keeps its connections, and takes writes on them, until the Sentinels reconfigure it; writers that connect meanwhile reach the
     * new one, which the tracking connection does not hear.
     */
    private void checkSentinel(RedisClient redis, String master) {
        TrackedServer server = servers.get("Redis");
        StatefulRedisConnection<byte[], byte[]> tracked = (server == null) ? null : server.trackingConnection();
        if (!running || tracked == null) {
            return; // nothing tracks: the copies are off anyway, and a reconnect asks a Sentinel for the master
        }
        execute(() -> {
            // on the connector's thread: opening the Sentinel connection blocks
            CompletableFuture<Map<String, String>> named;
            try {
                StatefulRedisSentinelConnection<String, String> asked = sentinel;
                if (asked == null || !asked.isOpen()) {
                    asked = redis.connectSentinel();
                    sentinel = asked;
                    if (!running) {
                        asked.closeAsync(); // stopped while it opened
                        return;
                    }
                }
                named = asked.async().master(master).toCompletableFuture();
            }
            catch (RuntimeException ex) {
                named = CompletableFuture.failedFuture(ex);
            }
            ScheduledExecutorService onto = scheduler;
            if (onto == null) {
                return; // stopped meanwhile
            }
            named.thenCombine(tracked.async().info("server").toCompletableFuture(),
                    (answer, info) -> new String[] { answer.get("runid"), TrackedServer.runId(info), answer.get("ip") + ":" + answer.get("port") })
                    .orTimeout(properties.getTopologyRefresh().toMillis(), TimeUnit.MILLISECONDS)
                    .whenCompleteAsync((ids, error) -> sentinelAnswered(server, tracked, master, ids, error), onto);
        });
    }

    /**
     * On the scheduler's thread: the Sentinel's answer. The tracking connection is opened again (a Sentinel names the master
     * each time it connects) when the Sentinel names another address than when it last named the tracked server, or another
     * run id. A Sentinel learns a new master's run id a moment after it names it: until then its address decides.
     */
    private void sentinelAnswered(TrackedServer server, StatefulRedisConnection<byte[], byte[]> tracked, String master, String[] ids, Throwable error) {
        if (!running) {
            return;
        }
        if (error != null || ids[1] == null) {
            topologyCheckFailed(new IllegalStateException("no Sentinel named master '" + master + "', or the tracked server's run id is unknown"
                    + ((error == null) ? "" : ": " + error), error));
            return;
        }
        String runId = ids[0];
        String address = ids[2];
        String why = null;
        if (sentinelAddress != null && !sentinelAddress.equals(address)) {
            why = "a Sentinel names " + address + " as master '" + master + "', not " + sentinelAddress + " any more";
        }
        else if (runId != null && !runId.isEmpty() && !runId.equals(ids[1])) {
            why = "a Sentinel names another server as master '" + master + "' (run_id " + runId + ") than the one tracked (run_id " + ids[1] + ")";
        }
        else if (runId == null || runId.isEmpty()) {
            topologyCheckFailed(new IllegalStateException("a Sentinel does not know the run id of master '" + master + "' yet"));
            return;
        }
        topologyChecked();
        if (why != null) {
            sentinelAddress = null;
            topologyChanges.incrementAndGet();
            server.reconnect(tracked, why);
        }
        else {
            sentinelAddress = address;
        }
    }

    /**
     * On the scheduler's thread: a topology check failed. Counted, logged on the first of a row; at the
     * {@value #TOPOLOGY_FAILURES_TOLERATED}th in a row the copies stop answering, since a change of the masters would go unseen.
     */
    private void topologyCheckFailed(RuntimeException failure) {
        topologyCheckFailures.incrementAndGet();
        int inARow = ++topologyFailuresInARow;
        if (inARow == 1) {
            log.warn("Near cache: the check of the masters failed ({}); after {} in a row the copies stop answering", failure.getMessage(),
                    TOPOLOGY_FAILURES_TOLERATED);
        }
        if (inARow == TOPOLOGY_FAILURES_TOLERATED) {
            log.warn("Near cache: {} checks of the masters failed in a row; the copies stop answering until one succeeds",
                    TOPOLOGY_FAILURES_TOLERATED);
            synchronized (this) {
                topologyUnknown = true;
                updateServing();
            }
        }
    }

    /** On the scheduler's thread: a topology check succeeded; copies stopped by failed checks answer again. */
    private void topologyChecked() {
        if (topologyFailuresInARow == 0) {
            return;
        }
        boolean stopped = topologyFailuresInARow >= TOPOLOGY_FAILURES_TOLERATED;
        topologyFailuresInARow = 0;
        if (stopped) {
            log.info("Near cache: the check of the masters succeeded again; the copies answer");
            synchronized (this) {
                topologyUnknown = false;
                updateServing();
            }
        }
    }

    /**
     * The address and URI of every master, those that own no slot included unless they are down: a master that is down
     * still owns its slots until a replica takes them, and one that owns none yet may be importing a slot, whose keys a
     * read reaches through {@code ASK} before the slot is its own. A master that is down and owns none (one whose replica
     * took over) holds no key.
     *
     * @param uris where the URIs come from, with the credentials, TLS and time-out of the configured
     * ones: the cluster client's topology (null: each node's own URI, which Lettuce's topology gives them)
     */
    private static Map<String, Master> masters(Iterable<RedisClusterNode> nodes, RedisClusterClient uris) {
        Map<String, Master> masters = new LinkedHashMap<>();
        for (RedisClusterNode node : nodes) {
            boolean slots = !node.getSlots().isEmpty();
            boolean failed = node.is(NodeFlag.FAIL) || node.is(NodeFlag.EVENTUAL_FAIL) || node.is(NodeFlag.HANDSHAKE);
            if (node.is(NodeFlag.UPSTREAM) && !node.is(NodeFlag.NOADDR) && node.getUri() != null && (slots || !failed)) {
                RedisURI uri = node.getUri();
                BitSet owned = new BitSet(SlotHash.SLOT_COUNT);
                node.getSlots().forEach(owned::set);
                masters.put(uri.getHost() + ":" + uri.getPort(), new Master((uris == null) ? uri : withSettings(uris, uri), owned));
            }
        }
        return masters;
    }

    /** A master of a cluster: where to reach it, and the slots it owns. */
    private record Master(RedisURI uri, BitSet slots) {
    }

    /**
     * Each tracked master's canary in a slot it owns now: kept while the master owns that slot, placed again when it does not,
     * none while it owns no slot (its delivery is then assumed, and no proof of an earlier canary can expire). A master whose
     * canary is placed, first or again, does not deliver until that canary is proven: the key and whether the copies answer
     * change together under this object's lock. A master left with no canary may let the copies start again. The keys are found
     * before the lock is taken: a master that owns one slot takes thousands of hashes to find a key in it.
     */
    private void placeCanaries(Map<String, Master> masters) {
        placeCanaries(masters, servers);
    }

    /** The same, for {@code among} alone. */
    private void placeCanaries(Map<String, Master> masters, Map<String, TrackedServer> among) {
        Map<TrackedServer, CanaryMove> moves = new LinkedHashMap<>();
        among.forEach((address, server) -> {
            Master master = masters.get(address);
            if (master == null) {
                return;
            }
            byte[] key = server.canaryKey();
            if (key == null || !master.slots().get(SlotHash.getSlot(key))) {
                byte[] placed = canaryIn(master.slots());
                if (placed != null || key != null) {
                    moves.put(server, new CanaryMove(key, placed));
                }
            }
        });
        if (moves.isEmpty()) {
            return;
        }
        synchronized (this) {
            moves.forEach((server, move) -> {
                // unless placed meanwhile by another check, which saw a newer topology
                if (server.canaryKey() == move.from()) {
                    log.debug("Near cache: the canary of {} is {} now", server.name(), (move.to() == null) ? "none (it owns no slot)"
                            : new String(move.to(), StandardCharsets.UTF_8));
                    server.canaryKey(move.to());
                }
            });
            startCopyIfEveryServerTracks();
        }
    }

    /** A master's canary key as a topology check found it, and the one it gets instead (null: none). */
    private record CanaryMove(byte[] from, byte[] to) {
    }

    /**
     * This instance's canary key with a hash tag that puts it in one of {@code slots}, or null if none does: no slot, or a
     * first prefix whose own hash tag puts every key under it in a slot outside them.
     */
    private byte[] canaryIn(BitSet slots) {
        if (slots.isEmpty()) {
            return null;
        }
        String instance = new String(canaryKey, StandardCharsets.UTF_8);
        if (SlotHash.getSlot(tagged(instance, 0)) == SlotHash.getSlot(tagged(instance, 1))
                && SlotHash.getSlot(tagged(instance, 1)) == SlotHash.getSlot(tagged(instance, 2))) {
            // the prefix's own hash tag decides the slot
            return slots.get(SlotHash.getSlot(tagged(instance, 0))) ? tagged(instance, 0) : null;
        }
        for (int tag = 0; tag < CANARY_TAGS_TRIED; tag++) {
            byte[] key = tagged(instance, tag);
            if (slots.get(SlotHash.getSlot(key))) {
                return key;
            }
        }
        return null;
    }

    private static byte[] tagged(String instance, int tag) {
        return (instance + "{" + tag + "}").getBytes(StandardCharsets.UTF_8);
    }

    /** {@code node}'s host and port, with the settings of a node the cluster client knows. */
    private static RedisURI withSettings(RedisClusterClient cluster, RedisURI node) {
        for (RedisClusterNode known : cluster.getPartitions()) {
            if (known.getUri() != null) {
                return RedisURI.builder(known.getUri()).withHost(node.getHost()).withPort(node.getPort()).build();
            }
        }
        return node;
    }

    /**
     * Tracks {@code masters}, on the connector's thread: keeps the connections to masters already
     * tracked, opens one to each new master and closes those to former masters. Any change discards
     * the copy, which starts again once every master tracks.
     */
    private void followMasters(RedisClusterClient cluster, Map<String, Master> masters) {
        if (!running || masters.isEmpty()) {
            return;
        }
        Map<String, TrackedServer> current = servers;
        if (masters.keySet().equals(current.keySet())) {
            return;
        }
        Map<String, TrackedServer> next = new LinkedHashMap<>();
        List<TrackedServer> added = new ArrayList<>();
        masters.forEach((address, master) -> {
            TrackedServer server = current.get(address);
            if (server == null) {
                // its canary is placed below, in a slot it owns, once it is among the servers
                server = new TrackedServer("master " + address, masterClient(cluster, master.uri()), true, scheduler, connector, settings, this,
                        null, new DataPath(true));
                added.add(server);
            }
            next.put(address, server);
        });
        List<TrackedServer> removed = current.values().stream().filter(server -> !next.containsValue(server)).toList();
        synchronized (this) {
            if (!running) {
                added.forEach(TrackedServer::close);
                return;
            }
            servers = next;
            if (!current.isEmpty()) {
                topologyChanges.incrementAndGet();
                discard("the cluster's masters changed to " + next.keySet(), connectionDrops);
            }
            startCopyIfEveryServerTracks();
        }
        if (current.isEmpty()) {
            log.info("Near cache: on a Redis Cluster; one tracking connection to each of its {} masters {}", next.size(), next.keySet());
        }
        // the new masters' alone: the others' keys were placed by the check that found this topology, or by a newer one since
        Map<String, TrackedServer> fresh = new LinkedHashMap<>(next);
        fresh.values().retainAll(added);
        placeCanaries(masters, fresh);
        removed.forEach(this::closed);
        added.forEach(this::started);
    }

    /** A client of one master's own, with the cluster client's resources and options, to the node's URI (credentials, TLS, timeout). */
    private static RedisClient masterClient(RedisClusterClient cluster, RedisURI node) {
        RedisClient client = RedisClient.create(cluster.getResources(), RedisURI.builder(node).build());
        client.setOptions(ClientOptions.copyOf(cluster.getOptions()));
        return client;
    }

    /**
     * Redis's {@code OK} arrives on Lettuce's event loop; it is taken on the scheduler's thread, where the copies are built, so
     * that no event loop waits for this object's lock or for the copies. A drop meanwhile makes it void, as it would have.
     */
    @Override
    public void confirmed(TrackedServer server, long dropsWhenAsked) {
        ScheduledExecutorService onto = scheduler;
        if (onto == null) {
            return; // stopped
        }
        try {
            onto.execute(() -> confirmNow(server, dropsWhenAsked));
        }
        catch (RejectedExecutionException ex) {
            // stopped meanwhile
        }
    }

    private synchronized void confirmNow(TrackedServer server, long dropsWhenAsked) {
        if (running && servers.containsValue(server) && server.confirm(dropsWhenAsked)) {
            startCopyIfEveryServerTracks();
        }
    }

    /** Under this object's lock: new copies, unless they are there or a server does not track (now, on its connection as it is). */
    private void startCopyIfEveryServerTracks() {
        Map<String, TrackedServer> tracked = servers;
        if (running && !active && !tracked.isEmpty() && tracked.values().stream().allMatch(TrackedServer::isDelivering)) {
            caches.forEach(NearCache::begin);
            active = true;
            sessions.incrementAndGet();
            log.info("Near cache: {} tracks {}; answering from the local copy",
                    (tracked.size() == 1) ? tracked.values().iterator().next() : "each of the " + tracked.size() + " masters",
                    properties.getPrefixes().stream().map(prefix -> prefix + "*").toList());
        }
        updateServing();
    }

    /** Under this object's lock: the copies answer while they exist and no server's heartbeat is late. */
    private void updateServing() {
        boolean serve = active && !topologyUnknown && servers.values().stream().allMatch(TrackedServer::isCurrent);
        if (serve != serving) {
            serving = serve;
            caches.forEach(cache -> cache.serve(serve));
        }
    }

    /** A tracking connection dropped: whatever it did not deliver is unknown, so the copies go now. On Lettuce's event loop: quick. */
    @Override
    public void lost(TrackedServer server, String why) {
        synchronized (this) {
            if (servers.containsValue(server)) {
                discard(why, connectionDrops);
            }
        }
    }

    @Override
    public synchronized void proven(TrackedServer server) {
        if (running && servers.containsValue(server)) {
            startCopyIfEveryServerTracks();
        }
    }

    /** A canary's invalidation did not arrive: others may have been lost too, so the copies go, counted apart as undelivered. */
    @Override
    public synchronized void undelivered(TrackedServer server, String why) {
        if (servers.containsValue(server)) {
            discard(why, undelivered);
        }
    }

    @Override
    public synchronized void late(TrackedServer server) {
        if (servers.containsValue(server)) {
            lates.incrementAndGet();
            updateServing();
        }
    }

    @Override
    public synchronized void answered(TrackedServer server) {
        if (servers.containsValue(server)) {
            updateServing();
        }
    }

    /** Under this object's lock: discards the copies, if any, saying why and counting it under {@code reason} too (unless {@code why} is null or tracking stopped). */
    private void discard(String why, AtomicLong reason) {
        boolean was = active;
        active = false;
        caches.forEach(NearCache::end);
        updateServing();
        if (was && why != null) {
            reason.incrementAndGet();
            drops.incrementAndGet();
            lastDrop = why;
            if (running) {
                log.warn("Near cache: {}; dropped the local copy, reading Redis until tracking is back", why);
            }
        }
    }

    /** Runs on Lettuce's event loop: quick, never blocking. */
    @Override
    public void pushed(TrackedServer server, PushMessage message) {
        if (!"invalidate".equals(message.getType())) {
            return;
        }
        List<Object> content = message.getContent();
        if (!(content.size() > 1 && content.get(1) instanceof List<?> keys)) {
            // no keys: the database was flushed (on a cluster, that master's): new, empty copies
            synchronized (this) {
                caches.forEach(NearCache::flushed);
            }
        }
        else {
            boolean canariesOnly = true;
            for (Object key : keys) {
                if (key instanceof ByteBuffer bytes) {
                    RedisKey changed = RedisKey.of(bytes);
                    if (isCanary(changed)) {
                        continue; // a heartbeat's, this instance's or another's: no key of the application's
                    }
                    canariesOnly = false;
                    if (changed.startsWithAny(prefixes)) {
                        for (NearCache<?> cache : caches) {
                            cache.invalidate(changed);
                        }
                    }
                }
            }
            if (canariesOnly) {
                return;
            }
        }
        // counted once handled: whoever sees the count move sees the copies without those keys
        invalidations.incrementAndGet();
    }

    /** Whether {@code key} is a canary of any instance's: the first prefix, then the mark. */
    private boolean isCanary(RedisKey key) {
        return canaryKey != null && key.startsWith(canaryMark);
    }

    /**
     * The application's data connection, through the connection factory as the caches' reads take it: the
     * canary goes where the application's writes go. Called on the connector's thread (taking the connection
     * may open it); the commands are asynchronous, and the connection is given back once they are answered.
     */
    private final class DataPath implements TrackedServer.DataPath {

        /** Whether the data connection is a cluster's, which routes the canary by its slot, and whose {@code INFO} names no one master. */
        private final boolean cluster;

        DataPath(boolean cluster) {
            this.cluster = cluster;
        }

        @Override
        public CompletionStage<?> writeCanary(byte[] key, byte[] value, long expiryMillis) {
            return withConnection(commands -> commands.psetex(key, expiryMillis, value));
        }

        @Override
        public CompletionStage<String> serverInfo() {
            // on a cluster the topology check follows the masters; no run id to compare
            return cluster ? CompletableFuture.completedFuture(null) : withConnection(commands -> commands.info("server"));
        }

        private <T> CompletionStage<T> withConnection(java.util.function.Function<RedisClusterAsyncCommands<byte[], byte[]>, CompletionStage<T>> command) {
            RedisConnection connection = connectionFactory.getConnection();
            try {
                @SuppressWarnings("unchecked")
                RedisClusterAsyncCommands<byte[], byte[]> commands = (RedisClusterAsyncCommands<byte[], byte[]>) connection.getNativeConnection();
                return command.apply(commands).whenComplete((reply, error) -> execute(connection::close));
            }
            catch (RuntimeException ex) {
                connection.close();
                throw ex;
            }
        }
    }

    private void execute(Runnable task) {
        try {
            connector.execute(task);
        }
        catch (RejectedExecutionException ex) {
            // stopped meanwhile
        }
    }

    private void later(Runnable task, Duration delay) {
        try {
            scheduler.schedule(() -> execute(task), delay.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (RejectedExecutionException ex) {
            // stopped meanwhile
        }
    }

    /** Stops tracking: the copies go, the connections close; {@link #start()} tracks again from the beginning. */
    @Override
    public void stop() {
        Map<String, TrackedServer> tracked;
        synchronized (this) {
            if (!running) {
                return;
            }
            running = false;
            discard(null, connectionDrops);
            tracked = servers;
            servers = Map.of();
            if (scheduler != null) {
                StatefulRedisSentinelConnection<String, String> asked = sentinel;
                sentinel = null;
                if (asked != null) {
                    asked.closeAsync();
                }
                scheduler.shutdownNow();
                connector.shutdownNow();
                scheduler = null;
                connector = null;
            }
        }
        tracked.values().forEach(this::closed);
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
