package dev.colorbench.redissonnearcache;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

import dev.colorbench.testkit.DelayProxy;
import dev.colorbench.testkit.EmbeddedRedis;
import dev.colorbench.testkit.RedisCommandStats;
import dev.colorbench.testkit.statistics.Statistics;
import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.redisson.Redisson;
import org.redisson.RedissonObject;
import org.redisson.api.RFuture;
import org.redisson.api.RLocalCachedMap;
import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.api.options.LocalCachedMapOptions;
import org.redisson.api.options.LocalCachedMapOptions.ReconnectionStrategy;
import org.redisson.api.options.LocalCachedMapOptions.SyncStrategy;
import org.redisson.cache.LocalCachedMessageCodec;
import org.redisson.client.RedisException;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import org.redisson.config.Protocol;

import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;

import static dev.colorbench.redissonnearcache.StalenessSteps.closeAll;
import static dev.colorbench.redissonnearcache.StalenessSteps.elapsedSince;
import static dev.colorbench.redissonnearcache.StalenessSteps.sleep;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redisson 4.7.0's {@code RLocalCachedMap} (a Redis hash with a local copy in each instance) put to the staleness
 * checks that the project's near cache passes ({@code NearCacheStalenessTest}) and that {@code RClientSideCaching}
 * fails ({@link RedissonKnownStalenessTest}). Each test <b>asserts what Redisson does</b>: where it is stale, the test
 * pins it ("still the value from before, N s after the write"), so that it fails once Redisson changes; where it
 * serves the write, the test asserts the bound and prints the time it measured.
 *
 * <p>An {@code RLocalCachedMap} hears of a change only through its own topic ({@code {name}:topic}), on which
 * another {@code RLocalCachedMap} instance of the same name publishes, in the same Lua script as its {@code HSET}.
 * It uses no {@code CLIENT TRACKING}. So there are two kinds of "another writer": another Redisson client writing
 * through the same map ({@link #writer}), and a plain client writing the hash ({@link #plain}).
 *
 * <p>The map under test ({@link #reader}) is on a Redisson client of its own, configured as the module's
 * ({@link RedissonSettings}: RESP3, no retries, a {@code PING} every 500 ms on every connection, which closes one
 * that has not answered by the next, reconnects 50 ms to 1 s apart), but with {@link #TIMEOUT}s of 2 s; named
 * {@value #READER} so that {@code CLIENT LIST} tells its connections apart, and reaching Redis through a
 * {@link DelayProxy}. The proxy adds nothing, but can freeze one connection, and can hold the reader away: while it
 * adds {@link #HOLD_AWAY} to each round trip, no handshake completes within the time-out, so the reader cannot
 * reconnect. That is how a write is made, deterministically, while the reader is not subscribed. The other Redisson
 * client ({@value #WRITER}), and the plain one, reach Redis directly.
 *
 * <p>The strategies ({@code LocalCachedMapOptions}): sync INVALIDATE (the default) or UPDATE, the message that another
 * instance's write publishes; reconnection NONE (the default), CLEAR (empty the local copy when the topic is
 * subscribed again) or LOAD (drop the fields that the map's update log shows written since the last message); and a
 * local time-to-live, none by default. Each case is run with the ones that change its outcome.
 *
 * <p>Every Redis here is one the test started, on a free port: each test kills connections, freezes them, flushes or
 * restarts it.
 */
class RedissonLocalCachedMapStalenessTest {

    private static final String MAP = "known-stale:local-cached-map";

    /** The channel every {@code RLocalCachedMap} named {@value #MAP} publishes its changes on, and listens to. */
    private static final String TOPIC = RedissonObject.suffixName(MAP, "topic");

    private static final String READER = "lcm-reader";

    private static final String WRITER = "lcm-writer";

    private static final List<String> FIELDS = IntStream.range(0, 12).mapToObj(i -> "f" + i).toList();

    /** The field every test changes first through {@link #writer}, to see the map served before the disturbance. */
    private static final String CONTROL = "f0";

    /** The field each case changes. */
    private static final String CHANGED = "f7";

    /** The bound asked of another writer's change, and the time after the writes stop at which every read must be what Redis holds. */
    private static final Duration SETTLED = Duration.ofSeconds(1);

    /** The bound asked while the connection carrying the invalidations is silent. */
    private static final Duration SILENT_BOUND = Duration.ofSeconds(2);

    /** How long a value that should have been replaced is watched still being answered. */
    private static final Duration STILL_STALE = Duration.ofSeconds(2);

    /** How long every wait for something that must happen may take, on a loaded 2-core machine. */
    private static final Duration WAIT = Duration.ofSeconds(10);

    /**
     * The Redisson clients' command and connect time-outs: the module's 500 ms let a new client's first connection
     * fail on a 2-core machine loaded far beyond its cores, and the staleness cases do not depend on them.
     */
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    /** The round trip the proxy adds to hold the reader away: more than twice its {@link #TIMEOUT}, so that no handshake completes. */
    private static final Duration HOLD_AWAY = Duration.ofSeconds(5);

    private static final int WRITES = 200;

    private EmbeddedRedis redis;

    /** The reader's path to Redis. */
    private DelayProxy path;

    private RedisClient plainClient;

    /** A plain client of the test's own, straight to Redis: the other kind of writer, and the one that looks. */
    private StatefulRedisConnection<String, String> plain;

    private RedisCommandStats stats;

    private RedissonClient readerClient;

    private RedissonClient writerClient;

    /** The map under test. */
    private RLocalCachedMap<String, String> reader;

    /** Another writer through Redisson: the same map, on another client, with the same options. */
    private RLocalCachedMap<String, String> writer;

    /** How a map is set up: its two strategies, and the time-to-live of its local entries (null: none, the default). */
    private record Setup(SyncStrategy sync, ReconnectionStrategy reconnection, Duration timeToLive) {

        static Setup of(SyncStrategy sync, ReconnectionStrategy reconnection) {
            return new Setup(sync, reconnection, null);
        }

        static Setup reconnecting(ReconnectionStrategy reconnection) {
            return of(SyncStrategy.INVALIDATE, reconnection);
        }

        LocalCachedMapOptions<String, String> options() {
            LocalCachedMapOptions<String, String> options = LocalCachedMapOptions.<String, String>name(MAP).codec(StringCodec.INSTANCE)
                    .syncStrategy(sync).reconnectionStrategy(reconnection);
            return timeToLive == null ? options : options.timeToLive(timeToLive);
        }

        @Override
        public String toString() {
            return "sync %s, reconnection %s%s".formatted(sync, reconnection, timeToLive == null ? "" : ", local time-to-live " + timeToLive.toMillis() + " ms");
        }
    }

    /**
     * Redisson's first client in a fresh JVM loads and compiles much of Redisson and Netty, which on a loaded machine can
     * take longer than the test's time-outs: one client with Redisson's own time-outs does it first.
     */
    @BeforeAll
    static void warmRedissonUp() {
        EmbeddedRedis warm = EmbeddedRedis.start();
        try {
            Config config = new Config();
            config.setProtocol(Protocol.RESP3);
            config.useSingleServer().setAddress(warm.url());
            RedissonClient client = Redisson.create(config);
            try {
                RLocalCachedMap<String, String> map = client.getLocalCachedMap(Setup.reconnecting(ReconnectionStrategy.LOAD).options());
                map.fastPut(CONTROL, "warm");
                assertThat(map.get(CONTROL)).isEqualTo("warm");
            }
            finally {
                client.shutdown(0, 2, TimeUnit.SECONDS);
            }
        }
        finally {
            warm.stop();
        }
    }

    @BeforeEach
    void startRedis() {
        redis = EmbeddedRedis.start();
        path = DelayProxy.start("127.0.0.1", URI.create(redis.url()).getPort(), Duration.ZERO);
        plainClient = RedisClient.create(redis.url());
        plain = plainClient.connect();
        stats = RedisCommandStats.connect(redis.url());
        redis().hset(MAP, initial());
    }

    @AfterEach
    void closeEverything() throws Exception {
        closeAll(() -> {
            if (readerClient != null) {
                readerClient.shutdown(0, 2, TimeUnit.SECONDS);
            }
        }, () -> {
            if (writerClient != null) {
                writerClient.shutdown(0, 2, TimeUnit.SECONDS);
            }
        }, () -> {
            if (stats != null) {
                stats.close();
            }
        }, () -> {
            if (plain != null) {
                plain.close();
            }
        }, () -> {
            if (plainClient != null) {
                plainClient.shutdown();
            }
        }, () -> {
            if (path != null) {
                path.close();
            }
        }, () -> {
            if (redis != null) {
                redis.stop();
            }
        });
    }

    // 1. Another writer

    /**
     * Another Redisson client writing through the same map: its {@code fastPut} is one script, {@code HSET} and
     * {@code PUBLISH}; the reader drops (INVALIDATE) or replaces (UPDATE) its entry when the message comes. 200
     * writes, one at a time: each served within {@link #SETTLED} of the write's reply, nothing but the value from
     * before until then. The percentiles, and the reader's {@code HGET}s (none under UPDATE, whose message carries
     * the value, unless a reconnection cleared the copy), are printed. CLEAR, so that a {@code PING} that a loaded
     * machine answers late (the connection closed and subscribed again) does not turn into a missed message.
     */
    @ParameterizedTest
    @EnumSource(value = SyncStrategy.class, names = { "INVALIDATE", "UPDATE" })
    void anotherRedissonWritersChangeIsServedWithinASecondOfItsReply(SyncStrategy sync) {
        open(Setup.of(sync, ReconnectionStrategy.CLEAR), true);
        Map<String, String> current = new HashMap<>(initial());
        current.put(CONTROL, redis().hget(MAP, CONTROL));
        List<Long> served = new ArrayList<>();
        RedisCommandStats.Snapshot before = stats.snapshot();
        for (int i = 0; i < WRITES; i++) {
            String field = FIELDS.get(1 + i % (FIELDS.size() - 1));
            String after = field + "-w" + i;
            writer.fastPut(field, after);
            long written = System.nanoTime();
            served.add(awaitServed(field, after, written, SETTLED, Set.of(current.get(field))).toNanos());
            current.put(field, after);
        }
        Map<String, Long> commands = RedisCommandStats.difference(before, stats.snapshot());
        served.sort(null);
        System.out.printf("RLocalCachedMap (%s): over %d writes through another Redisson client, served after the write's reply p50 %s,"
                + " p99 %s, max %s (bound %s); the reader's HGETs %d%n", sync, WRITES, millis(percentile(served, 50)), millis(percentile(served, 99)),
                millis(percentile(served, 100)), millis(SETTLED.toNanos()), commands.getOrDefault("hget", 0L));
        assertEveryReadIsWhatRedisHolds();
    }

    /**
     * Pins a limit of {@code RLocalCachedMap}'s design: a plain client's {@code HSET} publishes nothing on the map's
     * topic, and the map asks Redis for no tracking, so the change is never served: whatever the strategies, the
     * reader answers the value from before, from its local copy, for good.
     */
    @ParameterizedTest
    @EnumSource(value = SyncStrategy.class, names = { "INVALIDATE", "UPDATE" })
    void aPlainWritersChangeIsNeverServed(SyncStrategy sync) {
        open(Setup.of(sync, ReconnectionStrategy.NONE), true);
        String before = reader.get(CHANGED);

        redis().hset(MAP, CHANGED, CHANGED + "-plain");

        assertStillAnswersTheValuesFromBefore(Map.of(CHANGED, before), "a plain client's HSET");
    }

    /**
     * The one bound {@code RLocalCachedMap} offers against what it cannot hear: a local time-to-live. With 500 ms, a
     * plain client's change is served once the entry read before it expires, within {@link #SETTLED}.
     */
    @Test
    void aPlainWritersChangeIsServedOnceTheLocalTimeToLiveRunsOut() {
        Duration timeToLive = Duration.ofMillis(500);
        open(new Setup(SyncStrategy.INVALIDATE, ReconnectionStrategy.NONE, timeToLive), true);
        String before = reader.get(CHANGED);

        String after = CHANGED + "-plain";
        redis().hset(MAP, CHANGED, after);
        long written = System.nanoTime();

        Duration served = awaitServed(CHANGED, after, written, SETTLED, Set.of(before));
        System.out.printf("RLocalCachedMap (time-to-live %d ms): a plain client's HSET served after %s%n", timeToLive.toMillis(),
                millis(served.toNanos()));
    }

    // 2. Reconnect, restart, flush, race

    /**
     * Pins a Redisson 4.7.0 behaviour: with the default {@code ReconnectionStrategy.NONE}, a write made while the
     * reader's connections are down (killed, and held away by the proxy) is published to no one, and the reader,
     * once it has reconnected and subscribed again, keeps its entry from before, for good.
     */
    @Test
    void withReconnectionNoneAWriteMadeWhileItsConnectionsWereDownIsNeverServed() {
        open(Setup.reconnecting(ReconnectionStrategy.NONE), true);
        String before = reader.get(CHANGED);

        writeWhileTheReaderIsAway(this::killTheReadersConnections, () -> writer.fastPut(CHANGED, CHANGED + "-while-away"));

        assertStillAnswersTheValuesFromBefore(Map.of(CHANGED, before), "a write made while its connections were down");
    }

    /**
     * CLEAR empties the local copy when the map's topic is subscribed again; LOAD reads the map's update log
     * ({@code redisson__cache_updates_log}, which every writer with LOAD keeps for 10 minutes) since the last message
     * the reader had, and drops the fields written since. Either way, once the reader has subscribed again, the write
     * made while it was away is served within {@link #SETTLED}, and every read is what Redis holds.
     */
    @ParameterizedTest
    @EnumSource(value = ReconnectionStrategy.class, names = { "CLEAR", "LOAD" })
    void aWriteMadeWhileItsConnectionsWereDownIsServedOnceItSubscribesAgain(ReconnectionStrategy reconnection) {
        open(Setup.reconnecting(reconnection), true);
        String before = reader.get(CHANGED);
        String after = CHANGED + "-while-away";

        long subscribed = writeWhileTheReaderIsAway(this::killTheReadersConnections, () -> writer.fastPut(CHANGED, after));

        Duration served = awaitServed(CHANGED, after, subscribed, SETTLED, Set.of(before));
        System.out.printf("RLocalCachedMap (reconnection %s): connections killed, a write while away served %s after the reader subscribed again%n",
                reconnection, millis(served.toNanos()));
        assertEveryReadIsWhatRedisHolds();
    }

    /**
     * Pins a Redisson 4.7.0 behaviour: LOAD acts on a resubscription only once the instance has had a message
     * ({@code lastInvalidate > 0}). A reader that read the whole map but never heard of a change, when a write is made
     * while it is away, keeps its entry from before, for good, as with NONE.
     */
    @Test
    void withReconnectionLoadAReaderThatHadNoMessageBeforeNeverServesAWriteMadeWhileItWasAway() {
        open(Setup.reconnecting(ReconnectionStrategy.LOAD), false);
        String before = reader.get(CHANGED);

        writeWhileTheReaderIsAway(this::killTheReadersConnections, () -> writer.fastPut(CHANGED, CHANGED + "-while-away"));

        assertStillAnswersTheValuesFromBefore(Map.of(CHANGED, before), "a write made while it was away, with no message before");
    }

    /**
     * Pins a Redisson 4.7.0 behaviour: Redis restarted empty, and another Redisson client writes one field before the
     * reader is back. With NONE, the reader answers every field from before: the ones Redis no longer holds, and the
     * written one.
     */
    @Test
    void withReconnectionNoneRedisRestartedEmptyLeavesEveryFieldStale() {
        open(Setup.reconnecting(ReconnectionStrategy.NONE), true);
        Map<String, String> before = reader.getAll(Set.copyOf(FIELDS));

        writeWhileTheReaderIsAway(this::restartRedisEmpty, this::writeOnceTheWriterIsBack);

        assertThat(redis().hgetall(MAP)).as("what Redis holds after the restart").containsOnlyKeys(CHANGED);
        assertStillAnswersTheValuesFromBefore(before, "Redis restarted empty");
    }

    /** With CLEAR, once the reader has subscribed again after Redis restarted empty, every read is what Redis holds. */
    @Test
    void withReconnectionClearEveryReadIsWhatRedisHoldsOnceItSubscribesAgainAfterARestart() {
        open(Setup.reconnecting(ReconnectionStrategy.CLEAR), true);

        long subscribed = writeWhileTheReaderIsAway(this::restartRedisEmpty, this::writeOnceTheWriterIsBack);

        Duration served = awaitServed(CHANGED, CHANGED + "-after-restart", subscribed, SETTLED, Set.of(initial().get(CHANGED)));
        System.out.printf("RLocalCachedMap (reconnection CLEAR): Redis restarted empty, the write served %s after the reader subscribed again%n",
                millis(served.toNanos()));
        assertEveryReadIsWhatRedisHolds();
    }

    /**
     * Pins a Redisson 4.7.0 behaviour: LOAD after Redis restarted empty. The map exists again (another client wrote
     * one field, and logged it), so LOAD drops just the logged field, and keeps every other field, which Redis no
     * longer holds, for good: LOAD trusts a log that the restart emptied.
     */
    @Test
    void withReconnectionLoadRedisRestartedEmptyLeavesTheFieldsItDidNotLogStale() {
        open(Setup.reconnecting(ReconnectionStrategy.LOAD), true);
        Map<String, String> before = new LinkedHashMap<>(reader.getAll(Set.copyOf(FIELDS)));

        long subscribed = writeWhileTheReaderIsAway(this::restartRedisEmpty, this::writeOnceTheWriterIsBack);

        Duration served = awaitServed(CHANGED, CHANGED + "-after-restart", subscribed, SETTLED, Set.of(before.get(CHANGED)));
        System.out.printf("RLocalCachedMap (reconnection LOAD): Redis restarted empty, the logged write served %s after the reader subscribed again%n",
                millis(served.toNanos()));
        before.remove(CHANGED);
        assertStillAnswersTheValuesFromBefore(before, "Redis restarted empty, with one field written and logged");
    }

    /**
     * Pins a Redisson 4.7.0 behaviour: a {@code FLUSHDB} publishes nothing on the map's topic, and no connection is
     * lost, so no reconnection strategy acts: three readers, with NONE, CLEAR and LOAD, all answer every field from
     * before, for good, while Redis holds none. (The reader's {@code PING} off: a loaded machine's late {@code PING}
     * closes a connection, and CLEAR would then empty its copy, for a reason that is not the flush.)
     */
    @Test
    void aFlushIsNeverServedWhateverTheReconnectionStrategy() {
        open(Setup.reconnecting(ReconnectionStrategy.NONE), true, false, FIELDS);
        Map<String, String> before = reader.getAll(Set.copyOf(FIELDS));
        List<RLocalCachedMap<String, String>> readers = new ArrayList<>(List.of(reader));
        for (ReconnectionStrategy reconnection : List.of(ReconnectionStrategy.CLEAR, ReconnectionStrategy.LOAD)) {
            RLocalCachedMap<String, String> other = readerClient.getLocalCachedMap(Setup.reconnecting(reconnection).options());
            assertThat(other.getAll(Set.copyOf(FIELDS))).isEqualTo(before);
            readers.add(other);
        }

        redis().flushdb();

        long flushed = System.nanoTime();
        do {
            for (RLocalCachedMap<String, String> each : readers) {
                assertThat(each.getAll(Set.copyOf(FIELDS))).as("%s after the flush", elapsedSince(flushed)).isEqualTo(before);
                assertThat(each.getCachedMap()).as("what the local copy holds").isEqualTo(before);
            }
            sleep(Duration.ofMillis(50));
        }
        while (System.nanoTime() - flushed < STILL_STALE.toNanos());
        assertThat(redis().exists(MAP)).as("the map in Redis after the flush").isZero();
    }

    /**
     * Pins a Redisson 4.7.0 defect, the read-then-invalidate race: a read's {@code HGET} runs, another Redisson client
     * writes the field, the reader handles that write's message (INVALIDATE: nothing cached to drop; UPDATE: the new
     * value cached), and only then does the {@code HGET}'s reply arrive and get cached, over the message's effect.
     * The reader answers the value from before, for good (until the next write through Redisson). The read's reply
     * is held in the proxy ({@link #raceTheReadAgainstAWrite}).
     */
    @ParameterizedTest
    @EnumSource(value = SyncStrategy.class, names = { "INVALIDATE", "UPDATE" })
    void aReadRacingAWriteKeepsTheValueFromBeforeForGood(SyncStrategy sync) {
        Race race = raceTheReadAgainstAWrite(Setup.of(sync, ReconnectionStrategy.CLEAR));

        assertThat(race.read()).as("the raced read's answer: its HGET ran before the write").isEqualTo(race.before());
        assertThat(reader.getCachedMap()).as("what the local copy holds once the read's reply came").containsEntry(CHANGED, race.before());
        assertStillAnswersTheValuesFromBefore(Map.of(CHANGED, race.before()), "the write its read raced");
    }

    /** The same race with a local time-to-live of 500 ms: the value from before is served until it expires, then the write. */
    @Test
    void aReadRacingAWriteIsServedOnceTheLocalTimeToLiveRunsOut() {
        Duration timeToLive = Duration.ofMillis(500);
        Race race = raceTheReadAgainstAWrite(new Setup(SyncStrategy.INVALIDATE, ReconnectionStrategy.CLEAR, timeToLive));

        assertThat(race.read()).isEqualTo(race.before());
        Duration served = awaitServed(CHANGED, race.after(), race.readAt(), SETTLED, Set.of(race.before()));
        System.out.printf("RLocalCachedMap (time-to-live %d ms): a read that raced a write, the write served %s after that read returned%n",
                timeToLive.toMillis(), millis(served.toNanos()));
    }

    // 3. The connection that carries the invalidations goes silent

    /**
     * Pins a Redisson 4.7.0 behaviour: the reader's subscription connection frozen in the proxy (open, silent), a
     * write through Redisson is published to it and never delivered. Redisson's {@code PING} finds the connection
     * dead within 1 s, closes it and subscribes again on a new one; with NONE nothing is dropped, and the write is
     * never served.
     */
    @Test
    void withReconnectionNoneAWriteIsNeverServedOnceTheSubscriptionWentSilent() {
        open(Setup.reconnecting(ReconnectionStrategy.NONE), true);
        String before = reader.get(CHANGED);
        List<ReaderConnection> silent = freezeTheReadersSubscription();

        writer.fastPut(CHANGED, CHANGED + "-while-silent");

        awaitSubscribedAgain(silent);
        assertStillAnswersTheValuesFromBefore(Map.of(CHANGED, before), "a write while its subscription was silent");
    }

    /**
     * With CLEAR or LOAD, the subscription frozen in the proxy: the {@code PING} closes it, Redisson subscribes again,
     * and the strategy drops what may be stale. A write is served within {@link #SILENT_BOUND}.
     */
    @ParameterizedTest
    @EnumSource(value = ReconnectionStrategy.class, names = { "CLEAR", "LOAD" })
    void aWriteIsServedWithinTwoSecondsWhileTheSubscriptionIsSilent(ReconnectionStrategy reconnection) {
        open(Setup.reconnecting(reconnection), true);
        String before = reader.get(CHANGED);
        List<ReaderConnection> silent = freezeTheReadersSubscription();

        String after = CHANGED + "-while-silent";
        writer.fastPut(CHANGED, after);
        long written = System.nanoTime();

        Duration served = awaitServed(CHANGED, after, written, SILENT_BOUND, Set.of(before));
        System.out.printf("RLocalCachedMap (reconnection %s): subscription silent, a write served after %s (bound %s)%n", reconnection,
                millis(served.toNanos()), millis(SILENT_BOUND.toNanos()));
        awaitSubscribedAgain(silent);
        sleep(SETTLED);
        assertEveryReadIsWhatRedisHolds();
    }

    // the steps

    /**
     * The two Redisson clients and their maps, the reader warm: every field read, and read again at no {@code HGET}; both
     * maps subscribed to the topic. With {@code control}, a write of {@link #CONTROL} through {@link #writer} is served
     * first (the reader has then had a message).
     */
    private void open(Setup setup, boolean control) {
        open(setup, control, true, FIELDS);
    }

    /** The same, the reader's {@code PING} on or off, and only the fields {@code read} read. */
    private void open(Setup setup, boolean control, boolean readerPing, List<String> read) {
        readerClient = redisson(READER, path.port(), readerPing);
        writerClient = redisson(WRITER, URI.create(redis.url()).getPort(), true);
        reader = readerClient.getLocalCachedMap(setup.options());
        writer = writerClient.getLocalCachedMap(setup.options());
        for (String field : read) {
            assertThat(reader.get(field)).isEqualTo(initial().get(field));
        }
        assertThat(stats.during(() -> read.forEach(reader::get))).as("Redis commands of a warm read of every field (%s)", setup)
                .doesNotContainKeys("hget", "hmget", "hgetall");
        await("both maps subscribed to " + TOPIC, () -> subscribers() == 2);
        if (control) {
            String after = CONTROL + "-control";
            writer.fastPut(CONTROL, after);
            awaitServed(CONTROL, after, System.nanoTime(), SETTLED, Set.of(initial().get(CONTROL)));
        }
    }

    /**
     * Holds the reader away ({@link #HOLD_AWAY} on its path), cuts it off with {@code disturbance}, makes the write
     * while none of its connections is subscribed (checked after the write), then lets it back.
     *
     * @return when it was subscribed again (nanos)
     */
    private long writeWhileTheReaderIsAway(Runnable disturbance, Runnable write) {
        path.setAddedRoundTrip(HOLD_AWAY);
        disturbance.run();
        write.run();
        assertThat(readerConnections()).as("the reader's connections right after the write: none subscribed").noneMatch(ReaderConnection::subscribed);
        path.setAddedRoundTrip(Duration.ZERO);
        awaitSubscribedAgain(List.of());
        return System.nanoTime();
    }

    private void killTheReadersConnections() {
        List<ReaderConnection> connections = readerConnections();
        assertThat(connections).as("the reader's connections").anyMatch(ReaderConnection::subscribed);
        connections.forEach(connection -> redis().clientKill(KillArgs.Builder.id(connection.id())));
    }

    private void restartRedisEmpty() {
        redis.stop();
        redis.startServer();
        assertThat(redis().exists(MAP)).as("the map in the restarted Redis").isZero();
    }

    /** Another Redisson client writes {@link #CHANGED} as soon as it has its connection to the restarted Redis. */
    private void writeOnceTheWriterIsBack() {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            try {
                writer.fastPut(CHANGED, CHANGED + "-after-restart");
                return;
            }
            catch (RedisException ex) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the writer not back within " + WAIT + " of the restart", ex);
                }
                sleep(Duration.ofMillis(5));
            }
        }
    }

    /** Freezes in the proxy every connection of the reader that holds a subscription. */
    private List<ReaderConnection> freezeTheReadersSubscription() {
        List<ReaderConnection> subscribed = readerConnections().stream().filter(ReaderConnection::subscribed).toList();
        assertThat(subscribed).as("the reader's subscribed connections").isNotEmpty();
        subscribed.forEach(connection -> assertThat(path.freeze(connection.address())).as("the proxy's connection from %s", connection.address()).isTrue());
        return subscribed;
    }

    /** Until a connection of the reader other than {@code gone} is subscribed to the topic again. */
    private void awaitSubscribedAgain(List<ReaderConnection> gone) {
        Set<Long> goneIds = new LinkedHashSet<>(gone.stream().map(ReaderConnection::id).toList());
        await("the reader subscribed again", () -> subscribers() == 2
                && readerConnections().stream().anyMatch(connection -> connection.subscribed() && !goneIds.contains(connection.id())));
    }

    /** What the race left: the value before and after the write, what the raced read answered, and when it returned (nanos). */
    private record Race(String before, String after, String read, long readAt) {
    }

    /**
     * The read-then-invalidate race, made deterministic. The reader is set up without {@code PING}, so that a slow
     * round trip is not taken for a dead connection. Its proxy then adds a 1 s round trip; the reader
     * reads {@link #CHANGED}, which it never read before. Once Redis has run that {@code HGET} (its count in
     * {@code INFO commandstats}), and its reply sits in the proxy for another half second, the proxy adds nothing again
     * and another Redisson client writes the field. That write's message reaches the reader at once, while its read
     * is still waiting (checked in a listener of the same topic); then the read's reply arrives.
     */
    private Race raceTheReadAgainstAWrite(Setup setup) {
        open(setup, true, false, FIELDS.stream().filter(field -> !field.equals(CHANGED)).toList());
        String before = initial().get(CHANGED);
        String after = CHANGED + "-raced";
        RTopic topic = readerClient.getTopic(TOPIC, LocalCachedMessageCodec.INSTANCE);
        AtomicReference<Boolean> readDoneAtTheMessage = new AtomicReference<>();
        AtomicReference<RFuture<String>> raced = new AtomicReference<>();
        topic.addListener(Object.class, (channel, message) -> {
            RFuture<String> read = raced.get();
            if (read != null) {
                readDoneAtTheMessage.compareAndSet(null, read.isDone());
            }
        });
        long hgets = stats.snapshot().calls().getOrDefault("hget", 0L);

        path.setAddedRoundTrip(Duration.ofSeconds(1));
        raced.set(reader.getAsync(CHANGED));
        await("Redis ran the raced read's HGET", () -> stats.snapshot().calls().getOrDefault("hget", 0L) > hgets);
        sleep(Duration.ofMillis(50));
        path.setAddedRoundTrip(Duration.ZERO);
        writer.fastPut(CHANGED, after);
        await("the write's message reached the reader", () -> readDoneAtTheMessage.get() != null);

        assertThat(readDoneAtTheMessage.get()).as("whether the raced read had returned when the write's message reached the reader").isFalse();
        String read = raced.get().toCompletableFuture().join();
        long readAt = System.nanoTime();
        assertThat(redis().hget(MAP, CHANGED)).as("what Redis holds").isEqualTo(after);
        return new Race(before, after, read, readAt);
    }

    /** For {@link #STILL_STALE}, each field is answered with its value from before, alone and all together, while Redis holds another. */
    private void assertStillAnswersTheValuesFromBefore(Map<String, String> before, String after) {
        long start = System.nanoTime();
        do {
            before.forEach((field, value) -> assertThat(reader.get(field)).as("%s, %s after %s", field, elapsedSince(start), after).isEqualTo(value));
            assertThat(reader.getAll(before.keySet())).as("the fields together, %s after %s", elapsedSince(start), after).isEqualTo(before);
            sleep(Duration.ofMillis(50));
        }
        while (System.nanoTime() - start < STILL_STALE.toNanos());
        Map<String, String> held = redis().hgetall(MAP);
        before.forEach((field, value) -> assertThat(held.get(field)).as("what Redis holds for %s", field).isNotEqualTo(value));
        assertThat(reader.getCachedMap()).as("what the reader's local copy holds").containsAllEntriesOf(before);
    }

    /** Every read, each field alone, all together, and what the local copy holds, is what Redis holds. */
    private void assertEveryReadIsWhatRedisHolds() {
        Map<String, String> held = redis().hgetall(MAP);
        for (int round = 0; round < 3; round++) {
            for (String field : FIELDS) {
                assertThat(reader.get(field)).as("%s, round %d", field, round).isEqualTo(held.get(field));
            }
            assertThat(reader.getAll(Set.copyOf(FIELDS))).as("every field, round %d", round).isEqualTo(held);
        }
        reader.getCachedMap().forEach((field, value) -> assertThat(value).as("%s as the local copy holds it", field).isEqualTo(held.get(field)));
        assertThat(redis().hgetall(MAP)).as("what Redis held during the checks (nothing wrote meanwhile)").isEqualTo(held);
    }

    /**
     * Until the reader answers {@code after} for {@code field}, within {@code bound} of {@code since}; until then it may
     * answer only one of {@code before}, or fail (while it reconnects).
     */
    private Duration awaitServed(String field, String after, long since, Duration bound, Set<String> before) {
        RuntimeException failure = null;
        while (true) {
            String value = null;
            try {
                value = reader.get(field);
                failure = null;
            }
            catch (RedisException ex) {
                failure = ex;
            }
            long now = System.nanoTime();
            if (after.equals(value)) {
                return Duration.ofNanos(now - since);
            }
            if (failure == null) {
                assertThat(before).as("%s, %s in: the value from before or %s", field, elapsedSince(since), after).contains(value);
            }
            if (now - since > bound.toNanos()) {
                throw new AssertionError("%s still answers %s, not %s, %s after: the bound is %s".formatted(field, value, after,
                        elapsedSince(since), bound), failure);
            }
            sleep(Duration.ofMillis(2));
        }
    }

    /** One of the reader's connections as {@code CLIENT LIST} shows it. */
    private record ReaderConnection(long id, String address, int channels) {

        boolean subscribed() {
            return channels > 0;
        }
    }

    private List<ReaderConnection> readerConnections() {
        List<ReaderConnection> connections = new ArrayList<>();
        for (String line : redis().clientList().split("\n")) {
            Map<String, String> fields = new HashMap<>();
            for (String pair : line.trim().split(" ")) {
                int equals = pair.indexOf('=');
                if (equals > 0) {
                    fields.put(pair.substring(0, equals), pair.substring(equals + 1));
                }
            }
            if (READER.equals(fields.get("name"))) {
                connections.add(new ReaderConnection(Long.parseLong(fields.get("id")), fields.get("addr"), Integer.parseInt(fields.get("sub"))));
            }
        }
        return connections;
    }

    /** How many connections Redis has subscribed to the map's topic. */
    private long subscribers() {
        return redis().pubsubNumsub(TOPIC).getOrDefault(TOPIC, 0L);
    }

    private RedisCommands<String, String> redis() {
        return plain.sync();
    }

    /** A Redisson client set up as the module's ({@link RedissonSettings}) but for its {@link #TIMEOUT}s, named, on {@code port}. */
    private static RedissonClient redisson(String name, int port, boolean ping) {
        DataRedisProperties properties = new DataRedisProperties();
        properties.setTimeout(TIMEOUT);
        properties.setConnectTimeout(TIMEOUT);
        DataRedisConnectionDetails connection = new DataRedisConnectionDetails() {

            @Override
            public Standalone getStandalone() {
                return Standalone.of("127.0.0.1", port);
            }
        };
        return Redisson.create(new Named(RedissonSettings.config(connection, properties), name, ping));
    }

    /** The module's configuration with a client name (and, for the race and the flush, no {@code PING}). */
    private static final class Named extends Config {

        Named(Config module, String name, boolean ping) {
            super(module);
            getSingleServerConfig().setClientName(name);
            if (!ping) {
                getSingleServerConfig().setPingConnectionInterval(0);
            }
        }
    }

    private static Map<String, String> initial() {
        Map<String, String> values = new LinkedHashMap<>();
        FIELDS.forEach(field -> values.put(field, field + "-v0"));
        return values;
    }

    /** Until {@code condition} holds, for at most {@link #WAIT}. */
    private static void await(String what, BooleanSupplier condition) {
        StalenessSteps.await(WAIT, what, condition);
    }

    /** The one definition's percentile ({@link Statistics#percentile}) of nanoseconds. */
    private static long percentile(List<Long> nanos, int percent) {
        return (long) Statistics.percentile(nanos.stream().mapToDouble(Long::doubleValue).toArray(), percent);
    }

    private static String millis(long nanos) {
        return "%.2f ms".formatted(nanos / 1e6);
    }
}
