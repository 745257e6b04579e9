package dev.colorbench.testkit;

import java.net.URI;
import java.time.Duration;

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
        try (DelayProxy proxy = DelayProxy.start(redis.getHost(), redis.getPort(), Duration.ofMillis(2))) {
            String throughProxy = TestRedis.url().replace(redis.getHost() + ":" + redis.getPort(), "127.0.0.1:" + proxy.port());
            assertForwardsALargeValue(throughProxy);

            RedisRoundTrip.Measured measured = RedisRoundTrip.measure(TestRedis.url(), throughProxy);

            // never less than asked (each direction is held half of it); above it by what the machine's load adds
            assertThat(measured.addedMillis()).isBetween(1.9, 5.0);
            assertThat(measured.pathMillis()).isGreaterThan(measured.directMillis());
        }
    }

    @Test
    void addsNothingMeasurableBetweenTwoDirectConnections() {
        RedisRoundTrip.Measured measured = RedisRoundTrip.measure(TestRedis.url(), TestRedis.url());

        assertThat(measured.addedMillis()).isBetween(-0.5, 0.5);
    }

    private static void assertForwardsALargeValue(String url) {
        RedisClient client = RedisClient.create(RedisURI.create(url));
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            connection.sync().set("colors::test::proxy", "x".repeat(10_000));
            assertThat(connection.sync().get("colors::test::proxy")).hasSize(10_000);
            connection.sync().del("colors::test::proxy");
        }
        finally {
            client.shutdown();
        }
    }
}
