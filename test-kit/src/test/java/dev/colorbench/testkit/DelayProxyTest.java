package dev.colorbench.testkit;

import java.net.URI;
import java.time.Duration;
import java.util.Arrays;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A real Redis reached through the proxy is as far away as asked, and answers the same. */
class DelayProxyTest {

    @Test
    void addsTheAskedRoundTripToEveryCommandAndForwardsEveryByte() {
        URI redis = URI.create(TestRedis.url());
        double direct = medianPingMillis(redis.getHost(), redis.getPort());
        try (DelayProxy proxy = DelayProxy.start(redis.getHost(), redis.getPort(), Duration.ofMillis(2))) {
            double delayed = medianPingMillis("127.0.0.1", proxy.port());

            // never less than asked (each direction is held half of it); above it by what the machine's load adds
            assertThat(delayed - direct).isBetween(1.9, 5.0);
        }
    }

    private static double medianPingMillis(String host, int port) {
        RedisURI uri = RedisURI.create(TestRedis.url());
        uri.setHost(host);
        uri.setPort(port);
        RedisClient client = RedisClient.create(uri);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            connection.sync().set("colors::test::proxy", "x".repeat(10_000));
            assertThat(connection.sync().get("colors::test::proxy")).hasSize(10_000);
            connection.sync().del("colors::test::proxy");
            double[] millis = new double[41];
            for (int i = 0; i < millis.length; i++) {
                long start = System.nanoTime();
                connection.sync().ping();
                millis[i] = (System.nanoTime() - start) / 1e6;
            }
            Arrays.sort(millis);
            return millis[millis.length / 2];
        }
        finally {
            client.shutdown();
        }
    }
}
