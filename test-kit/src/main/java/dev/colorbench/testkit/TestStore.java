package dev.colorbench.testkit;

import java.util.Map;

/**
 * The data store a module reads, as its contract tests see it: the server the tests share
 * ({@link TestRedis} or {@link TestPostgres}), the work the module did there while something ran,
 * counted from outside the application, and someone else's data that must survive the module. A
 * module's {@link ColorApiContractTest} names its store and what one {@code GET /colors} costs there.
 *
 * <p>Work is counted by name, the finest name the store gives: Redis commands by command
 * ({@code get}, {@code mget}), PostgreSQL statements by normalized text
 * ({@code SELECT ... WHERE name = $1}), each with the number of times it ran.
 */
public interface TestStore extends AutoCloseable {

    /** Redis ({@link TestRedis}): commands by name, from {@code INFO commandstats}, and the round trips Redis served. */
    static TestStore redis() {
        return new RedisTestStore();
    }

    /**
     * A Redis Cluster ({@link TestRedisCluster}, three masters): commands by name and round trips, from
     * {@code INFO commandstats} and {@code total_reads_processed} on every master, summed.
     */
    static TestStore redisCluster() {
        return new RedisClusterTestStore();
    }

    /** PostgreSQL ({@link TestPostgres}): statements by normalized text, from {@code pg_stat_statements}; round trips are not counted. */
    static TestStore postgresql() {
        return new PostgresTestStore();
    }

    /** What the store did while something ran: work by name, and the round trips it served when it can tell ({@code null} when not). */
    record Work(Map<String, Long> byName, Long roundTrips) {

        /** All the work, whatever its name. */
        public long count() {
            return byName.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** Connects to the server (starting the shared one if need be) and leaves someone else's data there. */
    void open();

    /** Runs {@code action} and returns what the store did meanwhile, the test kit's own work left out. */
    Work during(Runnable action);

    /** How much the store holds of the project's data: keys in Redis, rows in the project's schema in PostgreSQL. */
    long footprint();

    /**
     * Fails unless someone else's data left by {@link #open()} is intact and, on a server only the
     * tests use, nothing wide-reaching ever ran (Redis: {@code FLUSHALL}, {@code FLUSHDB}, {@code KEYS},
     * {@code SCAN}; PostgreSQL: {@code DROP}, {@code TRUNCATE}, {@code DELETE}).
     */
    void assertOthersDataIntactAndNothingWideRan();

    /** Removes the data {@link #open()} left and disconnects. */
    @Override
    void close();
}
