package dev.colorbench.redis.nearcache;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One server's tracking connection: {@code CLIENT TRACKING ON BCAST PREFIX ...} on a RESP3 connection
 * of its own to that server (the single Redis, or one master of a cluster), which then reports every
 * write under the prefixes to the keys that server holds. It tells its {@link Events} (the
 * {@link NearCacheTracking} that owns it) Redis's {@code OK}, each drop of the connection, each push
 * message, and when its heartbeat is late and answered again.
 *
 * <p>The connection is opened with a Lettuce client that carries the application's settings (URI,
 * password, TLS, timeouts, reconnect back-off); until the server is first there, opening it is retried
 * on that back-off, and from then on Lettuce reconnects it. Tracking is asked for each time it
 * (re)connects (Redis forgets it with the connection). Each drop is counted, and the count taken when
 * tracking was asked for goes with the {@code OK}: the server {@link #isTracking() tracks} only if
 * Redis confirmed it on the connection as it is now, with no drop since the request was sent.
 *
 * <p><b>A connection that goes silent without closing</b> (a NAT or a load balancer that forgot an
 * idle flow, a partition, a frozen proxy) would otherwise never be noticed: the tracking connection
 * sends nothing of its own, and is idle exactly when nobody writes. So while it tracks, it is sent a
 * {@code PING} every heartbeat (250 ms by default). A {@code PING} not answered within the heartbeat
 * time-out (1 s) makes the connection <em>late</em>, at that time-out: the copy stops answering, but is kept. Redis
 * answers in order, so when the late {@code PING}'s answer arrives, every invalidation sent before it
 * has arrived too, and the copy answers again: a stall of Redis, or a pause of the application, costs
 * no copy. A {@code PING} that fails (the application's command time-out, or the connection closed)
 * counts as a drop: the copy goes, the connection is closed, and a new one is opened and asked for
 * tracking as after any drop. So a copy is never served more than {@code heartbeat + heartbeat time-out}
 * (1.25 s) after its connection went silent: the next {@code PING} is sent within a beat, and is late
 * at its time-out, plus the time the scheduler's thread takes to run on a busy machine.
 *
 * <p>Nothing here blocks a thread that must be quick: the heartbeat runs on a scheduler that only
 * sends and checks, opening a connection (which blocks until it is open or fails) runs on a connector
 * thread of its own, and closing is asynchronous. The heartbeat is one {@code PING} per beat per
 * tracked server, whatever the load.
 */
final class TrackedServer {

    private static final Logger log = LoggerFactory.getLogger(TrackedServer.class);

    /** How long to wait before asking for tracking again after Redis did not answer the request for it. */
    private static final Duration RETRY = Duration.ofSeconds(1);

    /**
     * How every server is tracked: the {@code CLIENT TRACKING} arguments, how often a tracking connection
     * is sent a {@code PING} while it tracks, how long one may go unanswered before the connection is
     * late, and how long before it counts as dropped (the application's command time-out).
     */
    record Settings(TrackingArgs tracking, Duration heartbeat, Duration silence, Duration commandTimeout) {
    }

    /** What a tracked server reports; each may be called on any of Lettuce's threads, or the library's. */
    interface Events {

        /**
         * Redis answered {@code OK} to the request for tracking sent when {@code drops} drops had been
         * counted; it counts only if {@link TrackedServer#confirm(long)} accepts it.
         */
        void confirmed(TrackedServer server, long drops);

        /** The connection dropped: what it did not deliver is unknown. Counted before this is called. */
        void lost(TrackedServer server, String why);

        /** The heartbeat is late: the copy must not answer until it is {@link #answered}. */
        void late(TrackedServer server);

        /** The late heartbeat was answered on the same connection: everything sent before it has arrived. */
        void answered(TrackedServer server);

        /** A push message (an invalidation) arrived on the connection; on Lettuce's event loop: quick, never blocking. */
        void pushed(TrackedServer server, PushMessage message);
    }

    private final String name;

    private final RedisClient client;

    private final boolean ownsClient;

    private final ScheduledExecutorService scheduler;

    private final Executor connector;

    private final Events events;

    private final Settings settings;

    private final AtomicLong drops = new AtomicLong();

    /** The count of drops Redis's last accepted {@code OK} was asked at; tracking while no drop came after it. */
    private volatile long confirmedAt = -1;

    private volatile boolean open = true;

    /** Whether the heartbeat is late on the connection as it is now. */
    private volatile boolean late;

    private volatile StatefulRedisConnection<byte[], byte[]> connection;

    /** Only touched by the connector's thread. */
    private int connectAttempts;

    /** The heartbeat's {@code PING} under way, on which connection, sent when: only touched by the scheduler's thread. */
    private volatile Ping ping;

    private ScheduledFuture<?> heartbeat;

    private record Ping(StatefulRedisConnection<byte[], byte[]> connection, long drops, long sentNanos, CompletableFuture<String> reply) {
    }

    /**
     * @param name what the logs and meters call the server: {@code Redis}, or {@code master host:port}
     * @param client the client whose default URI is the server's, with the application's options and resources
     * @param ownsClient whether the client is this server's alone, to shut down on {@link #close()} (not the application's)
     * @param scheduler the thread that beats the heart and keeps time: never blocked
     * @param connector the thread that opens connections, which blocks
     */
    TrackedServer(String name, RedisClient client, boolean ownsClient, ScheduledExecutorService scheduler, Executor connector,
            Settings settings, Events events) {
        this.name = name;
        this.client = client;
        this.ownsClient = ownsClient;
        this.scheduler = scheduler;
        this.connector = connector;
        this.events = events;
        this.settings = settings;
    }

    String name() {
        return name;
    }

    /** Opens the connection on the connector's thread, and beats the heart on the scheduler's. */
    void start() {
        later(this::connect, Duration.ZERO);
        try {
            heartbeat = scheduler.scheduleWithFixedDelay(this::heartbeat, settings.heartbeat().toMillis(), settings.heartbeat().toMillis(),
                    TimeUnit.MILLISECONDS);
        }
        catch (RejectedExecutionException ex) {
            // stopped meanwhile
        }
    }

    /** Whether Redis confirmed tracking on the connection as it is now: an accepted {@code OK}, no drop since. */
    boolean isTracking() {
        return confirmedAt == drops.get();
    }

    /** Whether the connection tracks and answers its heartbeat in time: only then may the copy answer. */
    boolean isCurrent() {
        return isTracking() && !late;
    }

    /** Drops counted since the server was made: the connection closed, or given up as silent. */
    long drops() {
        return drops.get();
    }

    /** The connection as it is now, if it is open and tracks: for a command of the owner's, such as {@code CLUSTER NODES}. */
    StatefulRedisConnection<byte[], byte[]> trackingConnection() {
        StatefulRedisConnection<byte[], byte[]> current = connection;
        return (current != null && current.isOpen() && isTracking()) ? current : null;
    }

    /**
     * Accepts Redis's {@code OK} to the request sent when {@code dropsWhenAsked} drops had been counted,
     * unless the connection dropped since. The owner calls it under its own lock, with its decisions.
     */
    boolean confirm(long dropsWhenAsked) {
        if (drops.get() != dropsWhenAsked) {
            return false;
        }
        confirmedAt = dropsWhenAsked;
        return true;
    }

    /**
     * Opens the tracking connection, on the connector's thread; Lettuce reconnects it from then on. Until
     * the server is first there, retried on the client's back-off.
     */
    private void connect() {
        if (!open) {
            return;
        }
        StatefulRedisConnection<byte[], byte[]> opened;
        try {
            opened = client.connect(ByteArrayCodec.INSTANCE);
        }
        catch (RuntimeException ex) {
            Duration delay = client.getResources().reconnectDelay().createDelay(++connectAttempts);
            log.debug("Near cache: no tracking connection to {} yet ({}); next attempt in {} ms", name, ex.getClass().getSimpleName(),
                    delay.toMillis());
            later(this::connect, delay);
            return;
        }
        connectAttempts = 0;
        opened.addListener(message -> events.pushed(this, message));
        opened.addListener(new RedisConnectionStateListener() {

            @Override
            public void onRedisConnected(RedisChannelHandler<?, ?> handler, SocketAddress address) {
                enable(opened);
            }

            @Override
            public void onRedisDisconnected(RedisChannelHandler<?, ?> handler) {
                // a connection given up as silent was counted as dropped then; its close is no news
                if (connection == opened) {
                    late = false;
                    drops.incrementAndGet();
                    events.lost(TrackedServer.this, "lost the tracking connection to " + name);
                }
            }
        });
        connection = opened;
        if (!open) {
            opened.closeAsync();
            return;
        }
        enable(opened);
    }

    /** Asks Redis to track the prefixes for this connection; runs on connecting and on every reconnect. */
    private void enable(StatefulRedisConnection<byte[], byte[]> tracked) {
        if (!open || !tracked.isOpen() || connection != tracked) {
            return;
        }
        ProtocolVersion protocol = (tracked instanceof StatefulRedisConnectionImpl<?, ?> impl)
                ? impl.getConnectionState().getNegotiatedProtocolVersion() : null;
        if (protocol != ProtocolVersion.RESP3) {
            log.warn("Near cache: the tracking connection to {} speaks {}, not RESP3; without push messages nothing is cached,"
                    + " every read goes to Redis", name, protocol);
            return;
        }
        long seen = drops.get();
        tracked.async().clientTracking(settings.tracking()).whenComplete((ok, error) -> {
            if (error == null || isAlreadyTracking(error)) {
                events.confirmed(this, seen);
            }
            else if (error instanceof RedisCommandExecutionException refused) {
                log.warn("Near cache: {} refused CLIENT TRACKING ({}); every read goes to Redis", name, refused.getMessage());
            }
            else if (open && drops.get() == seen) {
                log.debug("Near cache: CLIENT TRACKING not answered by {} ({}); asking again in {}", name, error.getClass().getSimpleName(),
                        RETRY);
                later(() -> enable(tracked), RETRY);
            }
        });
    }

    /**
     * On the scheduler's thread, every heartbeat: while the connection tracks, a {@code PING}. If the
     * last one failed, or is unanswered after the command time-out, the connection is given up; if it is
     * unanswered after the heartbeat time-out, it is late. A drop counted since the {@code PING} was sent
     * (the connection closed, and Lettuce reconnects it) makes its answer no news.
     */
    private void heartbeat() {
        Ping last = ping;
        if (last != null && last.connection() == connection && last.drops() == drops.get()) {
            CompletableFuture<String> reply = last.reply();
            long waited = System.nanoTime() - last.sentNanos();
            if (reply.isCompletedExceptionally() || (!reply.isDone() && waited > Math.max(settings.silence().toNanos(),
                    settings.commandTimeout().toNanos()))) {
                silent(last.connection(), reply.isCompletedExceptionally() ? "its PING failed" : "no answer to a PING in "
                        + settings.commandTimeout().toMillis() + " ms, the command time-out");
                return;
            }
            if (!reply.isDone()) {
                if (waited > settings.silence().toNanos()) {
                    markLate();
                }
                return;
            }
        }
        StatefulRedisConnection<byte[], byte[]> current = connection;
        if (open && current != null && isTracking()) {
            long dropsNow = drops.get();
            Ping sent = new Ping(current, dropsNow, System.nanoTime(), current.async().ping().toCompletableFuture());
            ping = sent;
            // late exactly at the time-out, not at the next beat after it
            try {
                scheduler.schedule(() -> {
                    if (!sent.reply().isDone() && ping == sent && connection == current && drops.get() == dropsNow) {
                        markLate();
                    }
                }, settings.silence().toNanos(), TimeUnit.NANOSECONDS);
            }
            catch (RejectedExecutionException ex) {
                // stopped meanwhile
            }
            sent.reply().whenComplete((pong, error) -> {
                // a late PING answered on the connection it was sent on: every invalidation before it has arrived
                if (error == null && late && ping == sent && connection == current && drops.get() == dropsNow) {
                    late = false;
                    log.info("Near cache: {} answered its PING after {} ms; the copy answers again", name,
                            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent.sentNanos()));
                    events.answered(this);
                }
            });
        }
        else {
            ping = null;
        }
    }

    /** On the scheduler's thread: the {@code PING} under way is unanswered past the heartbeat time-out. */
    private void markLate() {
        if (late) {
            return;
        }
        late = true;
        log.warn("Near cache: no answer from {} to a PING in {} ms; the copy does not answer until it comes", name, settings.silence().toMillis());
        events.late(this);
    }

    /**
     * The connection is given up as silent: counted as a drop (the copy goes now), closed, and a new one
     * opened on the connector's thread, tracked as after any drop. Its own close, later, is not counted again.
     */
    private void silent(StatefulRedisConnection<byte[], byte[]> quiet, String why) {
        ping = null;
        if (!open || connection != quiet) {
            return;
        }
        log.warn("Near cache: the tracking connection to {} went silent ({}); dropping it and connecting again", name, why);
        connection = null;
        late = false;
        drops.incrementAndGet();
        events.lost(this, "the tracking connection to " + name + " went silent");
        quiet.closeAsync();
        later(this::connect, Duration.ZERO);
    }

    /**
     * Redis refuses a prefix a connection already tracks: the answer to a second request for tracking
     * on the same connection (one that was not answered in time, and asked again), which is on all the same.
     */
    private static boolean isAlreadyTracking(Throwable error) {
        return error instanceof RedisCommandExecutionException && error.getMessage() != null
                && error.getMessage().contains("overlaps with an existing prefix");
    }

    /** Runs {@code task} on the connector's thread after {@code delay}, timed by the scheduler. */
    private void later(Runnable task, Duration delay) {
        try {
            scheduler.schedule(() -> {
                try {
                    connector.execute(task);
                }
                catch (RejectedExecutionException ex) {
                    // stopped meanwhile
                }
            }, delay.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (RejectedExecutionException ex) {
            // stopped meanwhile
        }
    }

    /** Closes the connection, and the client if it is this server's own, without waiting; nothing is asked again. */
    void close() {
        open = false;
        if (heartbeat != null) {
            heartbeat.cancel(false);
        }
        StatefulRedisConnection<byte[], byte[]> opened = connection;
        connection = null;
        if (opened != null) {
            opened.closeAsync();
        }
        if (ownsClient) {
            // its resources are the application's: only the client's own connections go
            client.shutdownAsync(0, 2, TimeUnit.SECONDS);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
