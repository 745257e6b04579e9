package com.example.colors;

import java.time.Duration;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.redisson.config.EqualJitterDelay;
import org.redisson.config.Protocol;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * One Redisson client for one server, from Spring Boot's Redis properties: small, since the cached reads all go over one
 * tracked connection, and quick to fail and to come back, so that an outage is a fast 503 and a returning Redis is used
 * within a second.
 */
@Configuration(proxyBeanMethods = false)
class RedissonSettings {

    @Bean(destroyMethod = "shutdown")
    RedissonClient redisson(@Value("${spring.data.redis.url}") String url, @Value("${spring.data.redis.timeout}") Duration timeout,
            @Value("${spring.data.redis.connect-timeout}") Duration connectTimeout, RedisConnectionState connection) {
        Config config = new Config();
        config.setProtocol(Protocol.RESP3);                // getClientSideCaching refuses to start without it
        config.setLazyInitialization(true);                // start without Redis; connect on the first read
        config.setThreads(2);
        config.setNettyThreads(4);
        config.setConnectionListener(connection);
        config.useSingleServer()
                .setAddress(url)
                .setConnectionMinimumIdleSize(1)
                .setConnectionPoolSize(4)
                .setSubscriptionConnectionMinimumIdleSize(1)
                .setSubscriptionConnectionPoolSize(2)
                .setTimeout((int) timeout.toMillis())
                .setConnectTimeout((int) connectTimeout.toMillis())
                .setSubscriptionTimeout((int) timeout.toMillis())
                .setRetryAttempts(0)                       // fail at once, not 4 more tries 1 to 2 s apart
                .setPingConnectionInterval(500)            // a silent connection is closed within about 1 s
                .setReconnectionDelay(new EqualJitterDelay(Duration.ofMillis(50), Duration.ofSeconds(1)));
        return Redisson.create(config);
    }
}
