package com.example.colors;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions.DisconnectedBehavior;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.resource.Delay;
import io.netty.util.HashedWheelTimer;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * A Redis that is away is a fast 503, a returning one is used within a second, replies are not kept for GC to copy, and
 * the client connects at start-up.
 */
@Configuration(proxyBeanMethods = false)
class LettuceSettings {

    private static final Logger log = LoggerFactory.getLogger(LettuceSettings.class);

    /** Commands are refused while disconnected (not buffered), at most 10,000 wait per connection, and every one times out. */
    @Bean
    LettuceClientOptionsBuilderCustomizer failFast() {
        return options -> options.disconnectedBehavior(DisconnectedBehavior.REJECT_COMMANDS)
                .requestQueueSize(10_000)
                .timeoutOptions(TimeoutOptions.enabled());
    }

    /** Reconnects after 50 ms, doubling to at most 1 s (Lettuce's own grows to 30 s). */
    @Bean
    ClientResourcesBuilderCustomizer reconnectWithinASecond() {
        return resources -> resources.reconnectDelay(
                Delay.exponential(Duration.ofMillis(50), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS));
    }

    /**
     * Command time-outs on a timer that ticks every 10 ms: with Lettuce's 100 ms tick every finished MGET, its reply
     * included, stays reachable until the next tick, and young collections copy it.
     */
    @Bean(destroyMethod = "stop")
    HashedWheelTimer commandTimeoutTimer() {
        return new HashedWheelTimer(new DefaultThreadFactory("lettuce-timer", true), 10, TimeUnit.MILLISECONDS);
    }

    @Bean
    ClientResourcesBuilderCustomizer commandTimeoutsOnAFineTimer(HashedWheelTimer commandTimeoutTimer) {
        return resources -> resources.timer(commandTimeoutTimer);
    }

    /**
     * Connects once the application has started, so that the first request does not also load and connect the client:
     * on a busy machine that takes longer than the 500 ms connect time-out. A Redis that is away then is logged, and
     * requests answer 503 until it is there.
     */
    @Bean
    ApplicationRunner connectAtStartUp(RedisConnectionFactory connectionFactory) {
        return arguments -> {
            try (RedisConnection connection = connectionFactory.getConnection()) {
                connection.ping();
            }
            catch (DataAccessException ex) {
                log.warn("Redis cannot be reached at start-up; requests answer 503 until it can: {}", ex.getMessage());
            }
        };
    }
}
