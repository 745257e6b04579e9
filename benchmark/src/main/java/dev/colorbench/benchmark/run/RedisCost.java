package dev.colorbench.benchmark.run;

import java.util.Map;
import java.util.TreeMap;

import dev.colorbench.testkit.RedisCommandStats;

/**
 * What one {@code GET /colors} asks of Redis, seen from outside the module: the commands Redis
 * executed and the round trips it served (its socket reads), both averaged over a number of
 * sequential requests, the measurement's own {@code INFO} calls taken off.
 */
final class RedisCost implements AutoCloseable {

    private final RedisCommandStats stats;

    RedisCost(String redisUrl) {
        this.stats = RedisCommandStats.connect(redisUrl);
    }

    String serverVersion() {
        return stats.serverVersion();
    }

    /** Runs {@code request} {@code requests} times and returns the average cost of one. */
    Verification.Cost measure(int requests, Runnable request) {
        RedisCommandStats.Usage usage = stats.usage(() -> {
            for (int i = 0; i < requests; i++) {
                request.run();
            }
        });
        Map<String, Double> perCommand = new TreeMap<>();
        usage.commands().forEach((command, calls) -> perCommand.put(command, (double) calls / requests));
        return new Verification.Cost(perCommand, usage.commandCount() / (double) requests,
                usage.roundTrips() == null ? null : usage.roundTrips() / (double) requests);
    }

    @Override
    public void close() {
        stats.close();
    }
}
