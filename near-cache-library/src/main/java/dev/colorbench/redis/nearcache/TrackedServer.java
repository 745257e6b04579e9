package dev.colorbench.redis.nearcache;

import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
 * <p><b>Delivery is proven, not assumed.</b> A connection that answers its {@code PING} may still not deliver
 * invalidations: a proxy that relays replies but drops RESP3 push frames, or a tracking connection left on a
 * server that is no longer the one the application writes to (a demoted master). So, with a {@link DataPath},
 * every heartbeat also writes a canary, a key of this instance's own under the first prefix
 * ({@code PSETEX}, expiring in a minute), through the application's data connection, and once that is
 * answered sends a {@code PING} on the tracking connection. Redis queues a write's invalidation to a
 * {@code BCAST} tracking connection (which has no {@code NOLOOP}) before it answers the writer, and answers
 * each connection in order, so the canary's invalidation arrives before that {@code PING}'s answer, or it
 * never will: then the server is {@linkplain Events#undelivered undelivered}, and its run id is compared with
 * the data connection's server's ({@code INFO server}); another server closes the tracking connection and
 * opens a new one. The server {@linkplain #isDelivering() delivers} only from a canary proven on the
 * connection as it is now; and a proof is a lease of {@code heartbeat + heartbeat time-out} from when its
 * canary was sent: past it without a newer proof (a canary or its {@code PING} slow), the server is late.
 * On a cluster each master's canary is a key in a slot that master owns (its hash tag chosen for that), written
 * through the cluster connection, which routes it there; no run ids are compared, as the topology check follows
 * the masters. A master that owns no slot has no canary: its delivery is assumed.
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

    /** How long a canary stays in Redis: long past any heartbeat, so that nothing is left once an instance is gone. */
    static final long CANARY_EXPIRY_MILLIS = 60_000;

    /** What sits in every canary's key, between the prefix and the instance: what tells a canary's invalidation from a key's. */
    static final String CANARY_MARK = "__near-cache-canary__::";

    private static final Pattern RUN_ID = Pattern.compile("run_id:(\\w+)");

    /** The application's data connection, as the canary reaches Redis through it: both asynchronous, never blocking the caller. */
    interface DataPath {

        /** {@code PSETEX key expiry value} on the application's data connection. */
        CompletionStage<?> writeCanary(byte[] key, byte[] value, long expiryMillis);

        /** {@code INFO server} of the server the data connection reaches. */
        CompletionStage<String> serverInfo();
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

        /** A canary's invalidation arrived on the connection as it is now: it {@linkplain TrackedServer#isDelivering() delivers}. */
        void proven(TrackedServer server);

        /** A canary's invalidation did not arrive, though the {@code PING} sent after it was answered: invalidations are lost. */
        void undelivered(TrackedServer server, String why);
    }

    private final String name;

    private final RedisClient client;

    private final boolean ownsClient;

    private final ScheduledExecutorService scheduler;

    private final Executor connector;

    private final Events events;

    private final Settings settings;

    /**
     * This instance's canary key on the server, under the first prefix; null: no canary, delivery is assumed (a cluster's master
     * that owns no slot). A cluster's master gets one in a slot it owns, placed again when its slots change.
     */
    private volatile byte[] canaryKey;

    /** The application's data connection to the server, which the canary is written through. */
    private final DataPath data;

    private final AtomicLong drops = new AtomicLong();

    /** Push messages received on any tracking connection of this server's: for its meters. */
    private final LongAdder pushes = new LongAdder();

    /** Canaries proven, and the time from each one's write to the answer that proved it: for its meters. */
    private final LongAdder canaries = new LongAdder();

    private final LongAdder canaryNanos = new LongAdder();

    /** The invalidations of this instance's canary received, on any connection of this server's. */
    private final AtomicLong canariesSeen = new AtomicLong();

    /** The count of drops when a canary was last proven; delivering while no drop came after it. */
    private volatile long provenAt = -1;

    /** When the last canary proven was sent: its proof holds for heartbeat + heartbeat time-out from then. */
    private volatile long provenSentNanos;

    /** Whether the last proof is older than its lease: the copy must not answer until a newer one comes. */
    private volatile boolean deliveryLate;

    /**
     * Whether a drop was logged at WARN since the server last delivered: the next ones go to DEBUG. A server that keeps being
     * dropped, as a Sentinel's former master is until the Sentinel reconfigures it, then logs one warning, not one a heartbeat.
     */
    private volatile boolean dropLogged;

    /** The canary under way: only touched by the scheduler's thread. */
    private Canary canary;

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

    private record Canary(StatefulRedisConnection<byte[], byte[]> connection, long drops, long sentNanos, long seenBefore, byte[] key) {
    }

    /**
     * @param name what the logs and meters call the server: {@code Redis}, or {@code master host:port}
     * @param client the client whose default URI is the server's, with the application's options and resources
     * @param ownsClient whether the client is this server's alone, to shut down on {@link #close()} (not the application's)
     * @param scheduler the thread that beats the heart and keeps time: never blocked
     * @param connector the thread that opens connections, which blocks
     * @param canaryKey this instance's canary key, under the first prefix; null for none
     * @param data the application's data connection to the same server, which writes the canary
     */
    TrackedServer(String name, RedisClient client, boolean ownsClient, ScheduledExecutorService scheduler, Executor connector,
            Settings settings, Events events, byte[] canaryKey, DataPath data) {
        this.name = name;
        this.canaryKey = canaryKey;
        this.data = data;
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

    /**
     * Whether the connection tracks and a canary's invalidation arrived on it as it is now: only then may a
     * copy begin. Without a canary (a cluster's master that owns no slot), whether it tracks.
     */
    boolean isDelivering() {
        return isTracking() && (canaryKey == null || provenAt == drops.get());
    }

    /** Whether the connection delivers and answers its heartbeat and its canaries in time: only then may the copy answer. */
    boolean isCurrent() {
        // without a canary there is no proof whose lease could run out: a lease check that raced with the key's removal says nothing
        return isDelivering() && !late && (canaryKey == null || !deliveryLate);
    }

    /** This instance's canary key on the server now; null: none. */
    byte[] canaryKey() {
        return canaryKey;
    }

    /**
     * The canary key from now on: a cluster's master gets one in a slot it owns, placed again when its slots change, and none
     * while it owns no slot. A canary under way with the former key proves nothing either way, and a new key must be proven
     * before the server delivers again, whatever the former one proved; with none, there is no proof to expire. The owner calls
     * it under its own lock, then decides whether the copies answer.
     */
    void canaryKey(byte[] key) {
        canaryKey = key;
        if (key == null) {
            deliveryLate = false;
        }
        else {
            provenAt = -1;
        }
    }

    /** Push messages received since the server was made: invalidations, its own canary's included. */
    long pushes() {
        return pushes.sum();
    }

    /** Canaries proven since the server was made. */
    long canaries() {
        return canaries.sum();
    }

    /** The time the proven canaries took, each from its write to the answer that proved it, added up, in nanoseconds. */
    long canaryNanos() {
        return canaryNanos.sum();
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
        if (canaryKey == null) {
            dropLogged = false; // tracking is all there is to prove
        }
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
        opened.addListener(message -> {
            pushes.increment();
            if (isOwnCanary(message)) {
                canariesSeen.incrementAndGet();
            }
            events.pushed(this, message);
        });
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
                    deliveryLate = false;
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
     * (the connection closed, and Lettuce reconnects it) makes its answer no news. Then the canary, if any.
     */
    private void heartbeat() {
        ping();
        canary();
    }

    /** The heartbeat's {@code PING}, and what the last one's answer, or its want, means. */
    private void ping() {
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

    /**
     * On the scheduler's thread, every heartbeat while the connection tracks: a canary, unless one is under
     * way; and late if the last proof's lease ran out. The canary is written through the data connection (on
     * the connector's thread, as taking the application's connection may block), then a {@code PING} is sent on
     * the tracking connection; both answered, the canary's invalidation has arrived before it, or never will.
     */
    private void canary() {
        byte[] key = canaryKey;
        if (key == null) {
            canary = null;
            return;
        }
        StatefulRedisConnection<byte[], byte[]> current = connection;
        long dropsNow = drops.get();
        if (!open || current == null || !isTracking()) {
            canary = null;
            return;
        }
        checkLease();
        Canary last = canary;
        if (last != null && last.connection() == current && last.drops() == dropsNow) {
            return; // one at a time: the lease bounds a slow one
        }
        Canary sent = new Canary(current, dropsNow, System.nanoTime(), canariesSeen.get(), key);
        canary = sent;
        byte[] value = Long.toString(sent.sentNanos()).getBytes(StandardCharsets.US_ASCII);
        CompletableFuture<Object> written = new CompletableFuture<>();
        try {
            connector.execute(() -> {
                try {
                    data.writeCanary(key, value, CANARY_EXPIRY_MILLIS).whenComplete((ok, error) -> {
                        if (error != null) {
                            written.completeExceptionally(error);
                        }
                        else {
                            written.complete(ok);
                        }
                    });
                }
                catch (RuntimeException ex) {
                    written.completeExceptionally(ex);
                }
            });
        }
        catch (RejectedExecutionException ex) {
            return; // stopped meanwhile
        }
        written.thenCompose(ok -> current.async().ping().toCompletableFuture())
                .whenComplete((pong, error) -> onScheduler(() -> canaryAnswered(sent, error)));
    }

    /** On the scheduler's thread: the canary's write and the {@code PING} after it were answered, or one failed. */
    private void canaryAnswered(Canary sent, Throwable error) {
        if (canary == sent) {
            canary = null;
        }
        if (!open || connection != sent.connection() || drops.get() != sent.drops()) {
            return; // the connection changed meanwhile: no news about the one there is
        }
        if (sent.key() != canaryKey) {
            return; // placed again meanwhile (a cluster's slots moved): its invalidation, if it came, was not counted as this server's
        }
        if (error != null) {
            // unknown, not undelivered (the data connection may be down): the lease decides
            log.debug("Near cache: the canary to {} failed ({}); the copy answers until its last proof is {} ms old", name,
                    error.getClass().getSimpleName(), lease().toMillis());
            return;
        }
        if (canariesSeen.get() > sent.seenBefore()) {
            proven(sent);
        }
        else {
            undelivered(sent);
        }
    }

    private void proven(Canary sent) {
        canaries.increment();
        canaryNanos.add(System.nanoTime() - sent.sentNanos());
        boolean was = isDelivering();
        provenAt = sent.drops();
        if (sent.key() != canaryKey) {
            // placed again since it was checked (on the connector's thread): the proof is the former key's, not the new one's, and
            // the owner may have seen it in between
            provenAt = -1;
            events.answered(this);
            return;
        }
        provenSentNanos = Math.max(provenSentNanos, sent.sentNanos());
        boolean fresh = System.nanoTime() - provenSentNanos <= lease().toNanos();
        try {
            scheduler.schedule(this::checkLease, provenSentNanos + lease().toNanos() - System.nanoTime() + 1, TimeUnit.NANOSECONDS);
        }
        catch (RejectedExecutionException ex) {
            // stopped meanwhile
        }
        if (!was) {
            dropLogged = false;
            deliveryLate = !fresh;
            log.info("Near cache: a canary's invalidation came back on the tracking connection to {}; it delivers", name);
            events.proven(this);
        }
        else if (deliveryLate && fresh) {
            deliveryLate = false;
            events.answered(this);
        }
    }

    /**
     * The canary's {@code PING} was answered before its invalidation: invalidations are lost on the way. The
     * copies go (what else was lost is unknown) until a canary is proven again; if the data connection reaches
     * another server than the tracking connection (their run ids differ), the tracking connection is opened again.
     */
    private void undelivered(Canary sent) {
        CompletableFuture<String> tracked = sent.connection().async().info("server").toCompletableFuture();
        CompletableFuture<String> written = new CompletableFuture<>();
        try {
            // on the connector's thread, as the canary's write: taking the application's connection may block
            connector.execute(() -> {
                try {
                    data.serverInfo().whenComplete((info, error) -> {
                        if (error != null) {
                            written.completeExceptionally(error);
                        }
                        else {
                            written.complete(info);
                        }
                    });
                }
                catch (RuntimeException ex) {
                    written.completeExceptionally(ex);
                }
            });
        }
        catch (RejectedExecutionException ex) {
            return; // stopped meanwhile
        }
        tracked.thenCombine(written, (trackedInfo, writtenInfo) -> new String[] { runId(trackedInfo), runId(writtenInfo) })
                .orTimeout(settings.silence().toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((ids, error) -> onScheduler(() -> {
                    if (!open || connection != sent.connection() || drops.get() != sent.drops() || sent.key() != canaryKey) {
                        return;
                    }
                    boolean was = provenAt == sent.drops();
                    provenAt = -1;
                    deliveryLate = false;
                    if (ids != null && ids[0] != null && ids[1] != null && !ids[0].equals(ids[1])) {
                        String why = "the tracking connection to " + name + " is on another server (run_id " + ids[0]
                                + ") than the data connection (run_id " + ids[1] + "): the canary's invalidation did not arrive";
                        events.undelivered(this, why);
                        // a while before connecting again: the application's URI may still lead to the other server
                        silent(sent.connection(), why, RETRY);
                        return;
                    }
                    if (was) {
                        log.warn("Near cache: the invalidation of a canary written to {} did not arrive on the tracking connection, though a PING sent"
                                + " after it was answered: push messages are lost on the way; reading Redis until a canary comes back", name);
                    }
                    events.undelivered(this, "a canary's invalidation did not arrive on the tracking connection to " + name
                            + ": push messages are lost on the way");
                }));
    }

    /** On the scheduler's thread: late if the last proof is older than its lease. */
    private void checkLease() {
        // without a canary (a master that owns no slot) there is no proof to expire: tracking is all there is
        if (canaryKey != null && !deliveryLate && isDelivering() && System.nanoTime() - provenSentNanos > lease().toNanos()) {
            deliveryLate = true;
            log.warn("Near cache: no canary proven on the tracking connection to {} for {} ms; the copy does not answer until one is", name,
                    lease().toMillis());
            events.late(this);
        }
    }

    /** How long a canary's proof lets the copy answer, from when the canary was sent: a beat to send the next, and its time-out. */
    private Duration lease() {
        return settings.heartbeat().plus(settings.silence());
    }

    private boolean isOwnCanary(PushMessage message) {
        byte[] canaryKey = this.canaryKey;
        if (canaryKey == null || !"invalidate".equals(message.getType())) {
            return false;
        }
        List<Object> content = message.getContent();
        if (content.size() > 1 && content.get(1) instanceof List<?> keys) {
            for (Object key : keys) {
                if (key instanceof ByteBuffer bytes && bytes.remaining() == canaryKey.length) {
                    byte[] read = new byte[bytes.remaining()];
                    bytes.duplicate().get(read);
                    if (Arrays.equals(read, canaryKey)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** The run id in an {@code INFO server} answer; null if there is none. */
    static String runId(String info) {
        Matcher matcher = (info == null) ? null : RUN_ID.matcher(info);
        return (matcher != null && matcher.find()) ? matcher.group(1) : null;
    }

    private void onScheduler(Runnable task) {
        try {
            scheduler.execute(task);
        }
        catch (RejectedExecutionException ex) {
            // stopped meanwhile
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

    /** On the scheduler's thread: {@code on} reaches a server that is no longer the one to track; it is dropped, and opened again at once. */
    void reconnect(StatefulRedisConnection<byte[], byte[]> on, String why) {
        silent(on, why, Duration.ZERO);
    }

    /**
     * The connection is given up as silent: counted as a drop (the copy goes now), closed, and a new one
     * opened on the connector's thread, tracked as after any drop. Its own close, later, is not counted again.
     */
    private void silent(StatefulRedisConnection<byte[], byte[]> quiet, String why) {
        silent(quiet, why, Duration.ZERO);
    }

    private void silent(StatefulRedisConnection<byte[], byte[]> quiet, String why, Duration reconnectAfter) {
        ping = null;
        if (!open || connection != quiet) {
            return;
        }
        if (dropLogged) {
            log.debug("Near cache: dropping the tracking connection to {} ({}) and connecting again", name, why);
        }
        else {
            dropLogged = true;
            log.warn("Near cache: dropping the tracking connection to {} ({}) and connecting again; until it delivers again, further"
                    + " drops are logged at DEBUG", name, why);
        }
        connection = null;
        late = false;
        deliveryLate = false;
        drops.incrementAndGet();
        events.lost(this, "the tracking connection to " + name + " was dropped: " + why);
        quiet.closeAsync();
        later(this::connect, reconnectAfter);
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
