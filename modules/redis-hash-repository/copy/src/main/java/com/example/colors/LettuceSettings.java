package com.example.colors;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions.DisconnectedBehavior;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.resource.Delay;
import io.netty.util.HashedWheelTimer;
import io.netty.util.concurrent.DefaultThreadFactory;

import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** A Redis that is away is a fast 503, a returning one is used within a second, and replies are not kept for GC to copy. */
@Configuration(proxyBeanMethods = false)
class LettuceSettings {

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
     * Command time-outs on a timer that ticks every 10 ms: with Lettuce's 100 ms tick a finished MGET, its 148 values
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
}
