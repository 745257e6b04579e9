package dev.colorbench.redis.nearcache;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TrackingArgs;
import io.lettuce.core.api.push.PushMessage;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.event.ClusterTopologyChangedEvent;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;

import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The connections on which Redis tells the application which keys changed, one per server that holds
 * them ({@link TrackedServer}: the single Redis, or each master of a Redis Cluster), and the
 * {@link NearCache}s whose local copies are only good while every one of them tracks. One per
 * application, made by {@link NearCacheAutoConfiguration}; the application makes its caches with
 * {@link #newCache}.
 *
 * <p><b>The mechanism: {@code CLIENT TRACKING ON BCAST PREFIX ...} on a dedicated RESP3 connection</b>,
 * whose invalidations arrive as push messages to a Lettuce {@code PushListener}. In broadcast mode Redis
 * sends an invalidation for every write to a key under the prefixes, whoever wrote it and whichever
 * connection read it, so the reads themselves go over the application's ordinary shared connection and
 * need no tracking of their own, and Redis keeps no table of the keys this client read (its
 * {@code tracking_total_keys} stays 0). Default-mode tracking, the alternative, would have to be on the
 * connection that reads (or redirected to this one and re-established on both after each reconnect),
 * and Redis would remember every key each client read. Redis sends the invalidation in the same pass
 * of its event loop as the writer's reply, so at the median it is handled by the time the writer has
 * its reply.
 *
 * <p><b>Tracking is active</b> only while Redis has answered {@code OK} to {@code CLIENT TRACKING} on
 * every tracked server's connection as it is now, until the next time one of them drops. Then each
 * cache answers from a new, empty copy; before and after, every read goes to Redis, keeping nothing.
 * A drop (Redis restarted, the connection killed or cut) may have taken invalidations with it, so the
 * copies are discarded in the event that reports the drop, before Lettuce reconnects; when it has,
 * tracking is asked for again on the new connection (Redis forgets it with the connection), and new
 * copies start only once that server's {@code OK} is in and every other server is still tracking. An
 * {@code OK} that arrives after another drop of its connection starts nothing: each server counts its
 * drops, and the count must not have moved since the command was sent. Lettuce's reconnect back-off
 * is the application's; the first connection, if Redis is not there at start-up, is retried with the
 * same back-off. Flushes (an invalidation without keys) empty the copies too.
 *
 * <p><b>On a Redis Cluster</b> ({@code spring.data.redis.cluster.nodes}) each master reports the
 * writes to its own slots only, so there is one tracking connection per master: the masters are the
 * nodes the application's cluster client knows as upstream (its topology, loaded at start and retried
 * on the back-off until the cluster answers), each connected with a standalone {@link RedisClient} on
 * the cluster client's resources (threads, reconnect back-off) and options (TLS, timeouts, protocol),
 * to the node's URI, which Lettuce gives the credentials, TLS and timeout of the configured URIs. A
 * master stopped and started again on its address is a drop and a reconnect like any other. When
 * Lettuce reports a changed topology ({@link ClusterTopologyChangedEvent}, with its adaptive refresh
 * on: triggered by redirects and failed reconnects) with another set of master addresses (a replica
 * promoted, a master added or removed), the copies are discarded, the connections to former masters
 * are closed, new masters are connected and tracked, and new copies start once all of them are.
 * Until Lettuce has noticed such a change, a master it does not know is not tracked. Slots moving
 * between known masters need nothing, since every master tracks the whole prefix.
 *
 * <p>A path to Redis that goes silent without closing the connection (a NAT or load balancer that
 * dropped an idle flow, a partition) is noticed by each tracking connection's heartbeat
 * ({@link TrackedServer}): a silent connection counts as a drop, so the copies go within
 * {@code 2 x heartbeat + heartbeat timeout} (1.5 s by default) of the silence, and a new connection
 * is opened and tracked.
 */
public final class NearCacheTracking implements SmartLifecycle, TrackedServer.Events {

    private static final Logger log = LoggerFactory.getLogger(NearCacheTracking.class);

    private final LettuceConnectionFactory connectionFactory;

    private final NearCacheProperties properties;

    /** The prefixes tracked; empty: every key. */
    private final List<String> prefixes;

    private final TrackedServer.Settings settings;

    /** Every cache made here: each gets every invalidation, and a new copy each session. */
    private final List<NearCache<?>> caches = new CopyOnWriteArrayList<>();

    private final AtomicLong invalidations = new AtomicLong();

    private final AtomicLong sessions = new AtomicLong();

    /** Whether every server tracks, and the caches answer from their copies; changed under this object's lock. */
    private volatile boolean active;

    private volatile boolean running;

    /** The servers tracked now, by address on a cluster; replaced whole, under this object's lock, when the masters change. */
    private volatile Map<String, TrackedServer> servers = Map.of();

    private ScheduledExecutorService connector;

    /** Lettuce's topology-changed events, on a cluster. */
    private Disposable topologyChanges;

    /** Only touched by the connector's thread. */
    private int topologyAttempts;

    public NearCacheTracking(RedisConnectionFactory connectionFactory, NearCacheProperties properties) {
        if (!(connectionFactory instanceof LettuceConnectionFactory lettuce)) {
            throw new IllegalStateException("A near cache needs Lettuce (RESP3 push messages), not " + connectionFactory.getClass().getName());
        }
        this.connectionFactory = lettuce;
        this.properties = properties;
        this.prefixes = List.copyOf(properties.getPrefixes());
        TrackingArgs tracking = TrackingArgs.Builder.enabled().bcast();
        if (!prefixes.isEmpty()) {
            tracking.prefixes(prefixes.toArray(String[]::new));
        }
        this.settings = new TrackedServer.Settings(tracking, properties.getHeartbeat(), properties.getHeartbeatTimeout());
    }

    /**
     * A near cache of the keys under the tracked prefixes, whose values {@code decoder} makes of the bytes
     * Redis holds; its copy holds at most {@code redis.near-cache.maximum-size} values. Make each once, at
     * start-up: every cache made here gets every invalidation for as long as the application runs.
     */
    public <V> NearCache<V> newCache(ValueDecoder<V> decoder) {
        NearCache<V> cache = new NearCache<>(connectionFactory, decoder, properties.getMaximumSize());
        synchronized (this) {
            caches.add(cache);
            if (active) {
                cache.begin();
            }
        }
        return cache;
    }

    /** Whether the caches answer from their copies: every server confirmed tracking on its connection as it is now. */
    public boolean isActive() {
        return active;
    }

    /** Invalidation messages handled so far, from any server, of one key, several, or all (a flush). */
    public long invalidations() {
        return invalidations.get();
    }

    /** How many times tracking became active: once each time every server had confirmed it on its connection. */
    public long sessions() {
        return sessions.get();
    }

    /** The servers tracked now, by name ({@code Redis}, or {@code master host:port}), each with whether it tracks. */
    public Map<String, Boolean> servers() {
        Map<String, Boolean> tracking = new LinkedHashMap<>();
        servers.values().forEach(server -> tracking.put(server.name(), server.isTracking()));
        return tracking;
    }

    @Override
    public void start() {
        AbstractRedisClient client = connectionFactory.getRequiredNativeClient();
        connector = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "near-cache-tracking");
            thread.setDaemon(true);
            return thread;
        });
        running = true;
        if (client instanceof RedisClusterClient cluster) {
            topologyChanges = cluster.getResources().eventBus().get()
                    .ofType(ClusterTopologyChangedEvent.class)
                    .subscribe(changed -> later(() -> followMasters(cluster, masters(changed.after())), Duration.ZERO));
            later(() -> trackMasters(cluster), Duration.ZERO);
        }
        else if (client instanceof RedisClient redis) {
            // the application's own client: its URI, password, TLS, timeouts and back-off
            TrackedServer server = new TrackedServer("Redis", redis, false, connector, settings, this);
            servers = Map.of("Redis", server);
            server.start();
        }
        else {
            throw new IllegalStateException("A near cache needs a standalone Redis or a Redis Cluster, not " + client.getClass().getName());
        }
    }

    /** The cluster's masters as the cluster client knows them at start; until the cluster answers, retried on the back-off. */
    private void trackMasters(RedisClusterClient cluster) {
        if (!running) {
            return;
        }
        List<RedisURI> masters;
        try {
            masters = masters(cluster.getPartitions());
        }
        catch (RuntimeException ex) {
            masters = List.of();
        }
        if (masters.isEmpty()) {
            Duration delay = cluster.getResources().reconnectDelay().createDelay(++topologyAttempts);
            log.debug("Near cache: no Redis Cluster topology yet; next attempt in {} ms", delay.toMillis());
            later(() -> trackMasters(cluster), delay);
            return;
        }
        followMasters(cluster, masters);
    }

    /** The address of every upstream node: each master, whatever its state (a master that is down still holds its slots). */
    private static List<RedisURI> masters(Iterable<RedisClusterNode> nodes) {
        List<RedisURI> masters = new ArrayList<>();
        for (RedisClusterNode node : nodes) {
            if (node.is(NodeFlag.UPSTREAM) && !node.is(NodeFlag.NOADDR) && node.getUri() != null) {
                masters.add(node.getUri());
            }
        }
        return masters;
    }

    /**
     * Tracks {@code masters}, on the connector's thread: keeps the connections to masters already
     * tracked, opens one to each new master and closes those to former masters. Any change discards
     * the copy, which starts again once every master tracks.
     */
    private void followMasters(RedisClusterClient cluster, List<RedisURI> masters) {
        if (!running || masters.isEmpty()) {
            return;
        }
        Map<String, TrackedServer> current = servers;
        Map<String, TrackedServer> next = new LinkedHashMap<>();
        List<TrackedServer> added = new ArrayList<>();
        for (RedisURI uri : masters) {
            String address = uri.getHost() + ":" + uri.getPort();
            TrackedServer server = current.get(address);
            if (server == null) {
                server = new TrackedServer("master " + address, masterClient(cluster, uri), true, connector, settings, this);
                added.add(server);
            }
            next.put(address, server);
        }
        if (next.keySet().equals(current.keySet())) {
            return;
        }
        List<TrackedServer> removed = current.values().stream().filter(server -> !next.containsValue(server)).toList();
        synchronized (this) {
            if (!running) {
                added.forEach(TrackedServer::close);
                return;
            }
            servers = next;
            discard(current.isEmpty() ? null : "the cluster's masters changed to " + next.keySet());
            startCopyIfEveryServerTracks();
        }
        if (current.isEmpty()) {
            log.info("Near cache: on a Redis Cluster; one tracking connection to each of its {} masters {}", next.size(), next.keySet());
        }
        removed.forEach(TrackedServer::close);
        added.forEach(TrackedServer::start);
    }

    /** A client of one master's own, with the cluster client's resources and options, to the node's URI (credentials, TLS, timeout). */
    private static RedisClient masterClient(RedisClusterClient cluster, RedisURI node) {
        RedisClient client = RedisClient.create(cluster.getResources(), RedisURI.builder(node).build());
        client.setOptions(ClientOptions.copyOf(cluster.getOptions()));
        return client;
    }

    @Override
    public synchronized void confirmed(TrackedServer server, long drops) {
        if (running && servers.containsValue(server) && server.confirm(drops)) {
            if (servers.size() > 1 && !active) {
                log.debug("Near cache: {} tracks {}", server, tracked());
            }
            startCopyIfEveryServerTracks();
        }
    }

    /** Under this object's lock: new copies, unless they are there or a server does not track (now, on its connection as it is). */
    private void startCopyIfEveryServerTracks() {
        Map<String, TrackedServer> tracked = servers;
        if (running && !active && !tracked.isEmpty() && tracked.values().stream().allMatch(TrackedServer::isTracking)) {
            caches.forEach(NearCache::begin);
            active = true;
            sessions.incrementAndGet();
            log.info("Near cache: {} tracks {}; answering from the local copy",
                    (tracked.size() == 1) ? tracked.values().iterator().next() : "each of the " + tracked.size() + " masters", tracked());
        }
    }

    private String tracked() {
        return prefixes.isEmpty() ? "every key" : prefixes.stream().map(prefix -> prefix + "*").toList().toString();
    }

    /** A tracking connection dropped: whatever it did not deliver is unknown, so the copies go now. */
    @Override
    public void lost(TrackedServer server) {
        synchronized (this) {
            if (servers.containsValue(server)) {
                discard("lost the tracking connection to " + server);
            }
        }
    }

    /** Under this object's lock: discards the copies, if any, saying why (unless {@code why} is null or tracking stopped). */
    private void discard(String why) {
        boolean was = active;
        active = false;
        caches.forEach(NearCache::end);
        if (was && running && why != null) {
            log.warn("Near cache: {}; dropped the local copy, reading Redis until tracking is back", why);
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
            // no keys: the database was flushed (on a cluster, that master's)
            caches.forEach(NearCache::invalidateAll);
        }
        else {
            for (Object key : keys) {
                if (key instanceof ByteBuffer bytes) {
                    String name = StandardCharsets.UTF_8.decode(bytes.duplicate()).toString();
                    if (isTracked(name)) {
                        for (NearCache<?> cache : caches) {
                            cache.invalidate(name);
                        }
                    }
                }
            }
        }
        // counted once handled: whoever sees the count move sees the copies without those keys
        invalidations.incrementAndGet();
    }

    private boolean isTracked(String key) {
        if (prefixes.isEmpty()) {
            return true;
        }
        for (String prefix : prefixes) {
            if (key.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private void later(Runnable task, Duration delay) {
        try {
            connector.schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (RejectedExecutionException ex) {
            // stopped meanwhile
        }
    }

    @Override
    public void stop() {
        Map<String, TrackedServer> tracked;
        synchronized (this) {
            running = false;
            discard(null);
            tracked = servers;
        }
        if (topologyChanges != null) {
            topologyChanges.dispose();
        }
        if (connector != null) {
            connector.shutdownNow();
        }
        tracked.values().forEach(TrackedServer::close);
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
