package dev.colorbench.testkit;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

/**
 * Counts what a Redis server has done, over a connection of its own: the commands it executed
 * ({@code INFO commandstats}) and the socket reads it served ({@code total_reads_processed}), one
 * per round trip of a client that waits for each answer, fewer when a client sends many commands
 * before it waits (a pipeline). This is how the tests and the benchmark see, from outside the
 * application, what one request really cost. Its own {@code INFO} calls are taken off every count.
 *
 * <p>{@code PING}, {@code CLUSTER NODES} and {@code PSETEX} are counted apart ({@link Usage#pings()}), with
 * the round trips they took: they are sent on a timer and not per request (the near cache's heartbeat on its
 * tracking connection, so that a connection gone silent is noticed, the canary it writes with {@code PSETEX}
 * each heartbeat, so that invalidations that stop arriving are noticed, and its check of a cluster's
 * masters), and a count of what some requests cost would otherwise depend on whether a beat fell inside
 * it. No pattern sends any of them per request; one that did would show it in {@code pings}, not in
 * {@code commands}.
 *
 * <p>A replica's {@code REPLCONF} is left out altogether, from the commands and the round trips: the
 * acknowledgement a replica sends its master once a second, on its replication link, is replication's own
 * heartbeat and never a request's cost. A replica connecting shows, as {@code PSYNC}. Nothing else is
 * taken off: a pattern that sends an {@code INFO} per request shows it.
 */
public final class RedisCommandStats implements AutoCloseable {

    private static final Pattern CALLS = Pattern.compile("^cmdstat_([^:]+):calls=(\\d+)", Pattern.MULTILINE);

    /** The commands sent on a timer: {@code CLUSTER NODES} is {@code cluster} before Redis 7, {@code cluster|nodes} after; the near cache's canary is a {@code PSETEX}. */
    private static final java.util.Set<String> TIMED = java.util.Set.of("ping", "cluster", "cluster|nodes", "psetex");

    /** A replica's acknowledgement to its master, once a second on its replication link. */
    private static final String REPLCONF = "replconf";

    private static final Pattern READS = Pattern.compile("^total_reads_processed:(\\d+)", Pattern.MULTILINE);

    private final RedisClient client;

    private final StatefulRedisConnection<String, String> connection;

    /** {@code INFO} commands this instance sent, each counted by the server once it has answered. */
    private long infoCalls;

    private RedisCommandStats(String url) {
        this.client = RedisClient.create(url);
        this.connection = client.connect();
    }

    public static RedisCommandStats connect(String redisUrl) {
        return new RedisCommandStats(redisUrl);
    }

    /**
     * The server's counters, as they stood when this reading was taken (one {@code INFO all}, so
     * that commands and reads are of the same instant); {@code socketReads} is -1 on a server that
     * does not count them (before Redis 6).
     */
    public record Snapshot(Map<String, Long> calls, long socketReads, long ownInfoCallsCounted) {
    }

    /**
     * What a server did between two readings: the commands but {@code PING}, their round trips
     * ({@code null} when it cannot tell), and the {@code PING}s, each one round trip of its own.
     */
    public record Usage(Map<String, Long> commands, Long roundTrips, long pings) {

        public Usage(Map<String, Long> commands, Long roundTrips) {
            this(commands, roundTrips, 0);
        }

        public long commandCount() {
            return commands.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** Reads the counters (lower-case command names, e.g. {@code get}, {@code mget}). */
    public synchronized Snapshot snapshot() {
        long counted = infoCalls;
        String info = info("all");
        Matcher reads = READS.matcher(info);
        return new Snapshot(parse(info), reads.find() ? Long.parseLong(reads.group(1)) : -1, counted);
    }

    /** The commands executed while {@code action} ran. */
    public Map<String, Long> during(Runnable action) {
        return usage(action).commands();
    }

    /** The commands executed and the round trips served while {@code action} ran. */
    public Usage usage(Runnable action) {
        Snapshot before = snapshot();
        action.run();
        return usage(before, snapshot());
    }

    /** What the server did between two readings, without this instance's own {@code INFO} calls (each one command and one read). */
    public static Usage usage(Snapshot before, Snapshot after) {
        long ownCalls = after.ownInfoCallsCounted() - before.ownInfoCallsCounted();
        long pings = pings(before, after);
        long replconfs = after.calls().getOrDefault(REPLCONF, 0L) - before.calls().getOrDefault(REPLCONF, 0L);
        Long roundTrips = before.socketReads() < 0 ? null : after.socketReads() - before.socketReads() - ownCalls - pings - replconfs;
        return new Usage(difference(before, after), roundTrips, pings);
    }

    /** What the server executed between two readings, without this instance's own {@code INFO} calls, the commands sent on timers and {@code REPLCONF}. */
    public static Map<String, Long> difference(Snapshot before, Snapshot after) {
        Map<String, Long> delta = new TreeMap<>();
        after.calls().forEach((command, calls) -> {
            long added = calls - before.calls().getOrDefault(command, 0L);
            if (command.equals("info")) {
                added -= after.ownInfoCallsCounted() - before.ownInfoCallsCounted();
            }
            if (added > 0 && !TIMED.contains(command) && !command.equals(REPLCONF)) {
                delta.put(command, added);
            }
        });
        return delta;
    }

    /** The {@code PING}s and {@code CLUSTER NODES} the server answered between two readings: sent on timers, counted apart. */
    public static long pings(Snapshot before, Snapshot after) {
        long timed = 0;
        for (String command : TIMED) {
            timed += after.calls().getOrDefault(command, 0L) - before.calls().getOrDefault(command, 0L);
        }
        return timed;
    }

    static Map<String, Long> parse(String info) {
        Map<String, Long> calls = new TreeMap<>();
        Matcher m = CALLS.matcher(info);
        while (m.find()) {
            calls.put(m.group(1).toLowerCase(), Long.parseLong(m.group(2)));
        }
        return calls;
    }

    /** Every command the server has executed so far, own calls included: for checks that something never ran. */
    public Map<String, Long> everything() {
        return parse(info("commandstats"));
    }

    /** The server's version, for reports. */
    public String serverVersion() {
        Matcher m = Pattern.compile("redis_version:(\\S+)").matcher(info("server"));
        return m.find() ? m.group(1) : "unknown";
    }

    /**
     * The server's name and version as it reports them: {@code Redis 8.0.2}, or {@code Valkey 9.1.2} (Valkey's
     * {@code redis_version} stays at the Redis version it is compatible with).
     */
    public String server() {
        String info = info("server");
        Matcher valkey = Pattern.compile("valkey_version:(\\S+)").matcher(info);
        if (valkey.find()) {
            return "Valkey " + valkey.group(1);
        }
        Matcher redis = Pattern.compile("redis_version:(\\S+)").matcher(info);
        return "Redis " + (redis.find() ? redis.group(1) : "unknown");
    }

    /** One section of {@code INFO}, read over this instance's connection (and taken off its counts). */
    public synchronized String info(String section) {
        String info = connection.sync().info(section);
        infoCalls++;
        return info;
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
