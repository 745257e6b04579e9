package dev.colorbench.benchmark;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.colorbench.core.RedisCommandStats;

/**
 * What one {@code GET /colors} asks of Redis, seen from outside the module: commands from
 * {@code INFO commandstats} and round trips from the socket reads Redis counts
 * ({@code total_reads_processed}), both divided over a number of sequential requests. The reads
 * this class's own INFO calls cause are measured with no request in flight and taken off.
 */
final class RedisCost implements AutoCloseable {

    private static final Pattern READS = Pattern.compile("total_reads_processed:(\\d+)");

    private final RedisCommandStats commands;

    RedisCost(String redisUrl) {
        this.commands = RedisCommandStats.connect(redisUrl);
    }

    String serverVersion() {
        return commands.serverVersion();
    }

    /** Runs {@code requests} times {@code request} and returns the average cost of one. */
    PerRequest measure(int requests, Runnable request) {
        Counts idle = count(() -> { });
        Counts loaded = count(() -> {
            for (int i = 0; i < requests; i++) {
                request.run();
            }
        });
        Map<String, Double> perCommand = new TreeMap<>();
        loaded.commands().forEach((command, calls) -> perCommand.put(command, (double) calls / requests));
        double commandsPerRequest = perCommand.values().stream().mapToDouble(Double::doubleValue).sum();
        Double roundTrips = loaded.reads() < 0 ? null : Math.max(0, loaded.reads() - idle.reads()) / (double) requests;
        return new PerRequest(perCommand, commandsPerRequest, roundTrips);
    }

    private Counts count(Runnable action) {
        long readsBefore = reads();
        Map<String, Long> before = commands.snapshot();
        action.run();
        Map<String, Long> after = commands.snapshot();
        long readsAfter = reads();
        long reads = readsBefore < 0 ? -1 : readsAfter - readsBefore;
        return new Counts(RedisCommandStats.difference(before, after), reads);
    }

    /** Socket reads so far, or -1 on a server that does not count them (before Redis 6). */
    private long reads() {
        Matcher matcher = READS.matcher(commands.info("stats"));
        return matcher.find() ? Long.parseLong(matcher.group(1)) : -1;
    }

    @Override
    public void close() {
        commands.close();
    }

    private record Counts(Map<String, Long> commands, long reads) {
    }

    /**
     * The average cost of one request: calls per command, their sum, and round trips (null when
     * the server cannot tell).
     */
    record PerRequest(Map<String, Double> commands, double commandsPerRequest, Double roundTrips) {
    }
}
