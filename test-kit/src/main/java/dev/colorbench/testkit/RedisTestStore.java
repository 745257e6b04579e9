package dev.colorbench.testkit;

import java.util.UUID;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link TestStore#redis()}: the shared {@link TestRedis}, its commands counted by {@link RedisCommandStats}. */
final class RedisTestStore implements TestStore {

    private static final String FOREIGN_KEY = "someone-else:" + UUID.randomUUID();

    private static final String FOREIGN_VALUE = "must survive every test";

    private RedisClient client;

    private StatefulRedisConnection<String, String> connection;

    private RedisCommandStats stats;

    @Override
    public void open() {
        client = RedisClient.create(TestRedis.url());
        connection = client.connect();
        stats = RedisCommandStats.connect(TestRedis.url());
        connection.sync().set(FOREIGN_KEY, FOREIGN_VALUE);
    }

    /** A connection of the test's own to the Redis the module uses. */
    RedisCommands<String, String> commands() {
        return connection.sync();
    }

    @Override
    public Work during(Runnable action) {
        RedisCommandStats.Usage usage = stats.usage(action);
        return new Work(usage.commands(), usage.roundTrips());
    }

    @Override
    public long footprint() {
        return connection.sync().dbsize();
    }

    @Override
    public void assertOthersDataIntactAndNothingWideRan() {
        assertThat(connection.sync().get(FOREIGN_KEY)).isEqualTo(FOREIGN_VALUE);
        if (TestRedis.isOwn()) {
            assertThat(stats.everything()).doesNotContainKeys("flushall", "flushdb", "keys", "scan");
        }
    }

    @Override
    public void close() {
        try {
            if (connection != null) {
                connection.sync().del(FOREIGN_KEY);
                connection.close();
            }
            if (stats != null) {
                stats.close();
            }
        }
        finally {
            if (client != null) {
                client.shutdown();
            }
        }
    }
}
