package dev.colorbench.benchmark.run;

import java.util.Map;
import java.util.TreeMap;

import dev.colorbench.testkit.PostgresQueryStats;

/**
 * What one {@code GET /colors} asks of PostgreSQL, seen from outside the module: the statements
 * {@code pg_stat_statements} counted, averaged over sequential requests. One statement is one round
 * trip for these modules (no pipelining, no transaction), so round trips are the statements.
 */
final class DatabaseCost implements AutoCloseable {

    private final PostgresQueryStats stats;

    private DatabaseCost(PostgresQueryStats stats) {
        this.stats = stats;
    }

    /** A counter on {@code jdbcUrl}, or one that counts nothing when there is no database in the run. */
    static DatabaseCost of(String jdbcUrl) {
        return new DatabaseCost(jdbcUrl == null ? null : PostgresQueryStats.connect(jdbcUrl));
    }

    Verification.Cost measure(int requests, Runnable request) {
        PostgresQueryStats.Usage usage = stats.usage(() -> {
            for (int i = 0; i < requests; i++) {
                request.run();
            }
        });
        Map<String, Double> perQuery = new TreeMap<>();
        usage.queries().forEach((query, calls) -> perQuery.put(query, (double) calls / requests));
        double perRequest = usage.total() / (double) requests;
        return new Verification.Cost(perQuery, perRequest, perRequest);
    }

    @Override
    public void close() {
        if (stats != null) {
            stats.close();
        }
    }
}
