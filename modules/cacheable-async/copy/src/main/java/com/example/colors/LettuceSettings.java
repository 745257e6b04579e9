package com.example.colors;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions.DisconnectedBehavior;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.resource.Delay;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.channel.Channel;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.util.HashedWheelTimer;
import io.netty.util.concurrent.DefaultThreadFactory;

import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A Redis that is away is a fast 503, a returning one is used within a second, replies are not kept for GC to copy, and
 * a request's 148 commands reach Redis in few writes.
 */
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
     * Command time-outs on a timer that ticks every 10 ms: with Lettuce's 100 ms tick each of a request's 148 finished
     * GETs stays reachable until the next tick, and young collections copy them.
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
     * One write to the socket for a burst of commands: Lettuce flushes every command as it is issued, and Redis, woken
     * by the first, reads the 148 GETs a few at a time. Netty's handler turns the flushes queued on the event loop
     * meanwhile into one, so Redis finds most of the burst in one read. A single command pays one more event-loop task.
     */
    @Bean
    ClientResourcesBuilderCustomizer consolidateFlushes() {
        return resources -> resources.nettyCustomizer(new NettyCustomizer() {
            @Override
            public void afterChannelInitialized(Channel channel) {
                channel.pipeline().addFirst(new FlushConsolidationHandler(FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true));
            }
        });
    }
}
