package dev.colorbench.testkit;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
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

            // never less than asked, each direction held half of it: no round trip through the proxy is shorter
            assertThat(measured.pathLeastMillis()).isGreaterThanOrEqualTo(2.0);
            assertThat(measured.addedMillis()).isGreaterThan(1.9);
            // and not more: a load on the machine lengthens many of the 501 round trips, not the quickest, while a proxy
            // holding each direction the whole round trip would make every one 4 ms or more
            assertThat(measured.pathLeastMillis()).isLessThan(3.0);
            assertThat(measured.pathMillis()).isGreaterThan(measured.directMillis());
        }
    }

    @Test
    void addsNothingMeasurableBetweenTwoDirectConnections() {
        RedisRoundTrip.Measured measured = RedisRoundTrip.measure(TestRedis.url(), TestRedis.url());

        assertThat(measured.addedMillis()).isBetween(-0.5, 0.5);
    }

    /** A frozen connection stays open on both ends and carries nothing; the proxy's other connections go on. */
    @Test
    void aFrozenConnectionCarriesNothingAndStaysOpen() throws Exception {
        URI redis = URI.create(TestRedis.url());
        try (DelayProxy proxy = DelayProxy.start(redis.getHost(), redis.getPort(), Duration.ZERO)) {
            String throughProxy = TestRedis.url().replace(redis.getHost() + ":" + redis.getPort(), "127.0.0.1:" + proxy.port());
            RedisClient client = RedisClient.create(RedisURI.create(throughProxy));
            RedisClient direct = RedisClient.create(RedisURI.create(TestRedis.url()));
            try (StatefulRedisConnection<String, String> frozen = client.connect();
                    StatefulRedisConnection<String, String> other = client.connect();
                    StatefulRedisConnection<String, String> observer = direct.connect()) {
                String name = "colorbench-frozen-" + System.nanoTime();
                frozen.sync().clientSetname(name);
                Matcher address = Pattern.compile("addr=(\\S+) .*name=" + name + " ").matcher(observer.sync().clientList());
                assertThat(address.find()).as("the connection in CLIENT LIST").isTrue();

                assertThat(proxy.freeze(address.group(1))).isTrue();
                RedisFuture<String> ping = frozen.async().ping();

                assertThat(ping.await(300, TimeUnit.MILLISECONDS)).as("a PING answered on a frozen connection").isFalse();
                assertThat(frozen.isOpen()).isTrue();
                assertThat(observer.sync().clientList()).as("Redis still has the connection").contains("name=" + name + " ");
                assertThat(other.sync().ping()).isEqualTo("PONG");
            }
            finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
                direct.shutdown();
            }
        }
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
