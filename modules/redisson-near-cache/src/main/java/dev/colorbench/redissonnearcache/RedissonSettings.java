package dev.colorbench.redissonnearcache;

import java.time.Duration;
import java.util.List;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.BaseConfig;
import org.redisson.config.Config;
import org.redisson.config.EqualJitterDelay;
import org.redisson.config.Protocol;
import org.redisson.config.ReadMode;

import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.boot.ssl.SslBundle;

/**
 * Redisson configured from what configures Lettuce in every module: Spring Boot's connection details
 * ({@code spring.data.redis.url}, or {@code REDIS_URL}, its password, user and database; the nodes of
 * {@code REDIS_CLUSTER_NODES}), its SSL bundle for a {@code rediss://} URL, and color-core's 500 ms
 * command and connect timeouts. What Redisson adds, and why:
 * <ul>
 * <li><b>RESP3</b>: {@code RedissonClient.getClientSideCaching} refuses to start without it;</li>
 * <li><b>no retries</b> ({@code retryAttempts 0}): Redisson's default is 4 more tries 1 to 2 s apart, which
 * would turn an outage into a request that hangs for seconds; Lettuce fails at once, and so must this;</li>
 * <li><b>a PING every {@value #PING_MILLIS} ms on every connection</b> ({@code pingConnectionInterval}, default
 * 30 s): one unanswered by the next beat closes the connection and Redisson reconnects it, so a connection
 * gone silent is closed within {@value #PING_MILLIS} to {@value #PING_MILLIS}&nbsp;x&nbsp;2 ms;</li>
 * <li><b>lazy initialization</b>: the module starts without Redis, like every module, and connects on the first read;</li>
 * <li>small pools (the cached reads all go over one tracked connection; nothing else reads through Redisson),
 * a 500 ms subscription timeout (the tracking subscription is made when the cache is created, on a request),
 * and a reconnect back-off from 50 ms to 1 s.</li>
 * </ul>
 */
final class RedissonSettings {

    static final int PING_MILLIS = 500;

    private RedissonSettings() {
    }

    static RedissonClient client(DataRedisConnectionDetails connection, DataRedisProperties properties) {
        return Redisson.create(config(connection, properties));
    }

    static Config config(DataRedisConnectionDetails connection, DataRedisProperties properties) {
        SslBundle ssl = connection.getSslBundle();
        boolean tls = ssl != null || properties.getSsl().isEnabled() || (properties.getUrl() != null && properties.getUrl().startsWith("rediss:"));
        String scheme = tls ? "rediss://" : "redis://";

        Config config = new Config();
        config.setProtocol(Protocol.RESP3);
        config.setLazyInitialization(true);
        config.setThreads(2);
        config.setNettyThreads(4);
        // redis://:password@host gives an empty user, which Redisson would send to AUTH; Lettuce leaves it out
        config.setUsername(blankToNull(connection.getUsername()));
        config.setPassword(blankToNull(connection.getPassword()));
        if (ssl != null) {
            config.setSslTrustManagerFactory(ssl.getManagers().getTrustManagerFactory());
            if (ssl.getStores().getKeyStore() != null) {
                config.setSslKeyManagerFactory(ssl.getManagers().getKeyManagerFactory());
            }
        }
        BaseConfig<?> servers;
        DataRedisConnectionDetails.Cluster cluster = connection.getCluster();
        if (cluster != null) {
            List<String> nodes = cluster.getNodes().stream().map(node -> scheme + node.host() + ":" + node.port()).toList();
            servers = config.useClusterServers()
                    .addNodeAddress(nodes.toArray(String[]::new))
                    .setReadMode(ReadMode.MASTER)
                    .setMasterConnectionMinimumIdleSize(1)
                    .setMasterConnectionPoolSize(4)
                    .setSlaveConnectionMinimumIdleSize(0)
                    .setSubscriptionConnectionMinimumIdleSize(1)
                    .setSubscriptionConnectionPoolSize(4);
        }
        else {
            DataRedisConnectionDetails.Standalone standalone = connection.getStandalone();
            servers = config.useSingleServer()
                    .setAddress(scheme + standalone.getHost() + ":" + standalone.getPort())
                    .setDatabase(standalone.getDatabase())
                    .setConnectionMinimumIdleSize(1)
                    .setConnectionPoolSize(4)
                    .setSubscriptionConnectionMinimumIdleSize(1)
                    .setSubscriptionConnectionPoolSize(2);
        }
        servers.setTimeout(millis(properties.getTimeout(), 500));
        servers.setConnectTimeout(millis(properties.getConnectTimeout(), 500));
        servers.setSubscriptionTimeout(millis(properties.getTimeout(), 500));
        servers.setRetryAttempts(0);
        servers.setPingConnectionInterval(PING_MILLIS);
        servers.setReconnectionDelay(new EqualJitterDelay(Duration.ofMillis(50), Duration.ofSeconds(1)));
        return config;
    }

    private static String blankToNull(String value) {
        return (value == null || value.isEmpty()) ? null : value;
    }

    private static int millis(Duration duration, int otherwise) {
        return (duration == null) ? otherwise : (int) duration.toMillis();
    }
}
