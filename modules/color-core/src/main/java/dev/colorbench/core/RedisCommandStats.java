package dev.colorbench.core;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

/**
 * Counts the commands a Redis server has executed, from {@code INFO commandstats}, over a
 * connection of its own: how the tests and the benchmark see, from outside the application,
 * what one request really cost.
 */
public final class RedisCommandStats implements AutoCloseable {

    private static final Pattern CALLS = Pattern.compile("^cmdstat_([^:]+):calls=(\\d+)", Pattern.MULTILINE);

    /** Commands that this class and connection handshakes issue themselves. */
    private static final Set<String> OWN = Set.of("info", "hello", "client|setinfo", "client|setname", "ping");

    private final RedisClient client;

    private final StatefulRedisConnection<String, String> connection;

    private RedisCommandStats(String url) {
        this.client = RedisClient.create(url);
        this.connection = client.connect();
    }

    public static RedisCommandStats connect(String redisUrl) {
        return new RedisCommandStats(redisUrl);
    }

    /** Calls per command (lower-case names, e.g. {@code get}, {@code mget}) so far. */
    public Map<String, Long> snapshot() {
        return parse(connection.sync().info("commandstats"));
    }

    /** The commands executed while {@code action} ran, without this class's own INFO calls. */
    public Map<String, Long> during(Runnable action) {
        Map<String, Long> before = snapshot();
        action.run();
        return difference(before, snapshot());
    }

    static Map<String, Long> parse(String info) {
        Map<String, Long> calls = new TreeMap<>();
        Matcher m = CALLS.matcher(info);
        while (m.find()) {
            calls.put(m.group(1).toLowerCase(), Long.parseLong(m.group(2)));
        }
        return calls;
    }

    /** What {@code after} counted beyond {@code before}, leaving out commands that ran zero times. */
    public static Map<String, Long> difference(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> delta = new TreeMap<>();
        after.forEach((command, calls) -> {
            long added = calls - before.getOrDefault(command, 0L);
            if (added > 0 && !OWN.contains(command)) {
                delta.put(command, added);
            }
        });
        return delta;
    }

    /** The server's version, for reports. */
    public String serverVersion() {
        Matcher m = Pattern.compile("redis_version:(\\S+)").matcher(info("server"));
        return m.find() ? m.group(1) : "unknown";
    }

    /** One section of {@code INFO}, read over this class's connection. */
    public String info(String section) {
        return connection.sync().info(section);
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
