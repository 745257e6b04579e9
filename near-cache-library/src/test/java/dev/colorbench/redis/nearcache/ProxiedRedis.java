package dev.colorbench.redis.nearcache;

import dev.colorbench.testkit.DelayProxy;
import dev.colorbench.testkit.EmbeddedRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

/** The teardown of the tests whose application reaches their own Redis through a {@link DelayProxy}, written once. */
final class ProxiedRedis {

    private ProxiedRedis() {
    }

    /** Closes the test's own connection and client, then, whatever failed, the path and the server. */
    static void stop(StatefulRedisConnection<?, ?> connection, RedisClient client, DelayProxy path, EmbeddedRedis redis) {
        try {
            connection.close();
            client.shutdown();
        }
        finally {
            path.close();
            redis.stop();
        }
    }
}
