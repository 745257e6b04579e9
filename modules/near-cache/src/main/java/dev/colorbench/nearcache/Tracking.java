package dev.colorbench.nearcache;

import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.colorbench.core.ColorKeys;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.TrackingArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.push.PushMessage;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.ProtocolVersion;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.stereotype.Component;

/**
 * The connection on which Redis tells this module which colors changed, and the {@link LocalCopy}
 * that is only good while it does.
 *
 * <p><b>The mechanism: {@code CLIENT TRACKING ON BCAST PREFIX colors::v3::} on a dedicated RESP3
 * connection</b>, whose invalidations arrive as push messages to a Lettuce {@code PushListener}. In
 * broadcast mode Redis sends an invalidation for every write to a key under the prefix, whoever
 * wrote it and whichever connection read it, so the reads themselves go over the application's
 * ordinary shared connection (with the fail-fast settings every module has) and need no tracking of
 * their own; Redis keeps no table of the keys this client read (its {@code tracking_total_keys}
 * stays 0, one prefix is registered), and this module caches every key under that prefix anyway.
 * The alternatives, and why not: default-mode tracking would have to be on the connection that
 * reads (or redirected to this one and re-established on both after each reconnect), Lettuce's
 * {@code ClientSideCaching} is deprecated from Lettuce 7.8 (lettuce#3897), tied to one connection and
 * puts what it read without checking for an invalidation in between, Spring Data Redis has no near cache
 * (spring-data-redis#1937), Jedis's client-side cache needs Redis 7.4 and Redisson's local cached
 * map keeps its own data layout instead of these plain string keys. Measured against the embedded
 * Redis 6.2 ({@code NearCacheStalenessTest}, a loaded 2-core VM): Redis reports one tracking client,
 * one prefix and {@code tracking_total_keys:0}; the module has handled an invalidation, at the median,
 * by the time the writer has its {@code SET} reply (p99 0.1 to 8 ms over runs of 200 writes), and
 * serves the new value in the first answer after it at p50 2 to 3 ms, p99 8 to 11 ms, that answer's
 * HTTP round trip included (the module's README has the runs).
 *
 * <p><b>Tracking is active</b> only between Redis's {@code OK} to {@code CLIENT TRACKING} on the
 * connection as it is now, and the next time that connection drops. Then a new, empty copy serves;
 * before and after, {@link #copy()} is null and the store reads Redis on every request, caching
 * nothing. A drop (Redis restarted, the connection killed or cut) may have taken invalidations with
 * it, so the copy is discarded in the event that reports the drop, before Lettuce reconnects; when
 * it has, tracking is asked for again on the new connection (Redis forgets it with the connection),
 * and a new copy starts only with its {@code OK}. An {@code OK} that arrives after another drop
 * starts nothing: each drop is counted, and the count must not have moved since the command was
 * sent. Lettuce's reconnect back-off is the application's (at most 1 s); the first connection, if
 * Redis is not there at start-up, is retried with the same back-off. Flushes (an invalidation
 * without keys) empty the copy too.
 *
 * <p>A path to Redis that goes silent without closing the connection delays invalidations for as
 * long as it is silent: TCP delivers them when it comes back, and if it never does the connection
 * breaks and the copy goes. There is no heartbeat: it would be a Redis command per interval, seen
 * in every count of what a request costs.
 *
 * <p>Meters: {@code colorbench.nearcache.tracking} (1 while the copy answers, 0 while every read goes
 * to Redis), {@code colorbench.nearcache.colors} (colors in the copy), {@code colorbench.nearcache.invalidations}
 * and {@code colorbench.nearcache.sessions} (tracking sessions begun).
 */
@Component
class Tracking implements SmartLifecycle, MeterBinder {

    private static final Logger log = LoggerFactory.getLogger(Tracking.class);

    /** Every color key starts with it: {@code colors::v3::}. */
    static final String PREFIX = ColorKeys.jsonKey("");

    private static final TrackingArgs BROADCAST = TrackingArgs.Builder.enabled().bcast().prefixes(PREFIX);

    /**
     * Why the module refuses a Redis Cluster ({@code REDIS_CLUSTER_NODES}): broadcast tracking is a setting
     * of one connection to one server, which then reports the writes to its own keys only. On a cluster each
     * master would need a tracking connection of its own, kept through reconnects, failovers and slot moves,
     * and the copy would be good only while all of them are: not built. Refusing at start-up, by name, is
     * better than a module that starts and then reads Redis on every request, or one that misses the writes
     * of two masters out of three and answers stale colors for good.
     */
    static final String ON_A_CLUSTER = "near-cache does not run on a Redis Cluster (REDIS_CLUSTER_NODES or spring.data.redis.cluster.nodes is set):"
            + " its invalidations come from CLIENT TRACKING on one connection to one server, which on a cluster would report the writes"
            + " of one master only. Point it at a single Redis (REDIS_URL) instead";

    /** How long to wait before asking for tracking again after Redis did not answer the request for it. */
    private static final Duration RETRY = Duration.ofSeconds(1);

    private final LettuceConnectionFactory connectionFactory;

    /** Each loss of the tracking connection (and the stop): an {@code OK} counts only if none happened since it was asked for. */
    private final AtomicLong losses = new AtomicLong();

    private final AtomicLong invalidations = new AtomicLong();

    private final AtomicLong sessions = new AtomicLong();

    private volatile LocalCopy copy;

    private volatile boolean running;

    private volatile StatefulRedisConnection<byte[], byte[]> connection;

    private ScheduledExecutorService connector;

    private RedisClient client;

    private int connectAttempts;

    Tracking(RedisConnectionFactory connectionFactory) {
        if (!(connectionFactory instanceof LettuceConnectionFactory lettuce)) {
            throw new IllegalStateException("near-cache needs Lettuce (RESP3 push messages), not " + connectionFactory.getClass().getName());
        }
        if (lettuce.isClusterAware()) {
            throw new IllegalStateException(ON_A_CLUSTER);
        }
        this.connectionFactory = lettuce;
    }

    /** The copy to answer from, or null while tracking is not active (then every read goes to Redis). */
    LocalCopy copy() {
        return copy;
    }

    boolean isActive() {
        return copy != null;
    }

    /** Invalidation messages received so far, of one key, several, or all (a flush). */
    long invalidations() {
        return invalidations.get();
    }

    /** How many times tracking became active: once per connection Redis confirmed it on. */
    long sessions() {
        return sessions.get();
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("colorbench.nearcache.tracking", this, tracking -> tracking.isActive() ? 1 : 0)
                .description("1 while the local copy answers, 0 while every read goes to Redis")
                .register(registry);
        Gauge.builder("colorbench.nearcache.colors", this, tracking -> {
            LocalCopy current = tracking.copy();
            return (current == null) ? 0 : current.size();
        }).description("Colors in the local copy").register(registry);
        FunctionCounter.builder("colorbench.nearcache.invalidations", invalidations, AtomicLong::get)
                .description("Invalidation messages received from Redis").register(registry);
        FunctionCounter.builder("colorbench.nearcache.sessions", sessions, AtomicLong::get)
                .description("Times Redis confirmed tracking on the (re)connected tracking connection").register(registry);
    }

    @Override
    public void start() {
        if (!(connectionFactory.getRequiredNativeClient() instanceof RedisClient redisClient)) {
            throw new IllegalStateException("near-cache needs a standalone Redis, not " + connectionFactory.getRequiredNativeClient().getClass().getName());
        }
        client = redisClient;
        connector = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "near-cache-tracking");
            thread.setDaemon(true);
            return thread;
        });
        running = true;
        connector.execute(this::connect);
    }

    /**
     * Opens the tracking connection with the application's client (its URI, password, TLS, timeouts and
     * back-off); Lettuce reconnects it from then on. Until Redis is first there, retried on the back-off.
     */
    private void connect() {
        if (!running) {
            return;
        }
        StatefulRedisConnection<byte[], byte[]> opened;
        try {
            opened = client.connect(ByteArrayCodec.INSTANCE);
        }
        catch (RuntimeException ex) {
            Duration delay = client.getResources().reconnectDelay().createDelay(++connectAttempts);
            log.debug("Near cache: no tracking connection yet ({}); next attempt in {} ms", ex.getClass().getSimpleName(), delay.toMillis());
            later(this::connect, delay);
            return;
        }
        opened.addListener(this::onPush);
        opened.addListener(new RedisConnectionStateListener() {

            @Override
            public void onRedisConnected(RedisChannelHandler<?, ?> handler, SocketAddress address) {
                enable(opened);
            }

            @Override
            public void onRedisDisconnected(RedisChannelHandler<?, ?> handler) {
                lost();
            }
        });
        connection = opened;
        if (!running) {
            opened.close();
            return;
        }
        enable(opened);
    }

    /** Asks Redis to track the colors for this connection; runs on connecting and on every reconnect. */
    private void enable(StatefulRedisConnection<byte[], byte[]> tracked) {
        if (!running || !tracked.isOpen()) {
            return;
        }
        ProtocolVersion protocol = (tracked instanceof StatefulRedisConnectionImpl<?, ?> impl)
                ? impl.getConnectionState().getNegotiatedProtocolVersion() : null;
        if (protocol != ProtocolVersion.RESP3) {
            log.warn("Near cache: the tracking connection speaks {}, not RESP3; without push messages nothing is cached,"
                    + " every read goes to Redis", protocol);
            return;
        }
        long seen = losses.get();
        tracked.async().clientTracking(BROADCAST).whenComplete((ok, error) -> {
            if (error == null || isAlreadyTracking(error)) {
                activate(seen);
            }
            else if (error instanceof RedisCommandExecutionException refused) {
                log.warn("Near cache: Redis refused CLIENT TRACKING ({}); every read goes to Redis", refused.getMessage());
            }
            else if (running && losses.get() == seen) {
                log.debug("Near cache: CLIENT TRACKING not answered ({}); asking again in {}", error.getClass().getSimpleName(), RETRY);
                later(() -> enable(tracked), RETRY);
            }
        });
    }

    /**
     * Redis refuses a prefix a connection already tracks: the answer to a second request for tracking
     * on the same connection (one that was not answered in time, and asked again), which is on all the same.
     */
    private static boolean isAlreadyTracking(Throwable error) {
        return error instanceof RedisCommandExecutionException && error.getMessage() != null
                && error.getMessage().contains("overlaps with an existing prefix");
    }

    private synchronized void activate(long seen) {
        if (running && losses.get() == seen && copy == null) {
            copy = new LocalCopy();
            sessions.incrementAndGet();
            log.info("Near cache: Redis tracks {}* for this module; answering from the local copy", PREFIX);
        }
    }

    /** The tracking connection dropped: whatever it did not deliver is unknown, so the copy goes now. */
    private void lost() {
        LocalCopy dropped;
        synchronized (this) {
            losses.incrementAndGet();
            dropped = copy;
            copy = null;
            if (dropped != null) {
                dropped.discard();
            }
        }
        if (dropped != null && running) {
            log.warn("Near cache: lost the tracking connection to Redis; dropped the local copy, reading Redis until tracking is back");
        }
    }

    /** Runs on Lettuce's event loop: quick, never blocking. */
    private void onPush(PushMessage message) {
        if (!"invalidate".equals(message.getType())) {
            return;
        }
        invalidations.incrementAndGet();
        LocalCopy current = copy;
        List<Object> content = message.getContent();
        if (!(content.size() > 1 && content.get(1) instanceof List<?> keys)) {
            // no keys: the database was flushed
            if (current != null) {
                current.invalidateAll();
            }
            return;
        }
        if (current == null) {
            return;
        }
        for (Object key : keys) {
            if (key instanceof ByteBuffer bytes) {
                String name = StandardCharsets.UTF_8.decode(bytes.duplicate()).toString();
                if (name.startsWith(PREFIX)) {
                    current.invalidate(name.substring(PREFIX.length()));
                }
            }
        }
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
        synchronized (this) {
            running = false;
            losses.incrementAndGet();
            if (copy != null) {
                copy.discard();
                copy = null;
            }
        }
        if (connector != null) {
            connector.shutdownNow();
        }
        StatefulRedisConnection<byte[], byte[]> open = connection;
        if (open != null) {
            open.close();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
