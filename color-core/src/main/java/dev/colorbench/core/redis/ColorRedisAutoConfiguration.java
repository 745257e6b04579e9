package dev.colorbench.core.redis;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.colorbench.core.palette.Palette;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.ClientOptions.DisconnectedBehavior;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.resource.Delay;
import io.netty.util.HashedWheelTimer;
import io.netty.util.concurrent.DefaultThreadFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * What every Redis module gets from the core: the {@link ColorCodec} it reads and writes colors with,
 * the layout of its {@code colors::v3} keys ({@link JsonKeys}), and Lettuce settings that fail fast
 * instead of queueing (see docs/measuring.md#client-settings).
 */
@AutoConfiguration
@ConditionalOnClass(RedisConnectionFactory.class)
public class ColorRedisAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ColorCodec colorCodec(JsonMapper jsonMapper) {
        return new ColorCodec(jsonMapper);
    }

    /** The layout of the {@code colors::v3} JSON strings: plain, or hash-tagged into one cluster slot ({@link JsonKeys}). */
    @Bean
    @ConditionalOnMissingBean
    JsonKeys jsonKeys(Environment environment) {
        return JsonKeys.of(environment.getProperty(JsonKeys.HASH_TAG_PROPERTY, Boolean.class, false));
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({ ClientOptions.class, LettuceClientOptionsBuilderCustomizer.class })
    static class LettuceConfiguration {

        /** Far above what the benchmark's threads keep in flight with the 148 colors, far below what exhausts memory. */
        private static final int MAX_QUEUED_COMMANDS = 10_000;

        /**
         * The pipelined and asynchronous patterns put one command per color in flight at once: with a
         * larger palette (the benchmark's keys scenario goes to 10,000 colors) the bound must hold at
         * least this many whole requests, or every request is refused before it starts.
         */
        private static final int WHOLE_REQUESTS_QUEUED = 16;

        private static final long COMMAND_TIMER_TICK_MILLIS = 10;

        /**
         * Lettuce would otherwise buffer commands while disconnected, queue without bound while
         * connected to a stalled server, and time out only synchronous calls: reactive and async
         * commands (WebFlux, the reactive health check) would wait for ever.
         */
        @Bean
        LettuceClientOptionsBuilderCustomizer failFast() {
            return options -> options.disconnectedBehavior(DisconnectedBehavior.REJECT_COMMANDS)
                    .requestQueueSize(requestQueueSize(Palette.all().size()))
                    .timeoutOptions(TimeoutOptions.enabled());
        }

        /** How many commands one connection may have in flight before Lettuce refuses the next: a fast 503, not a growing queue. */
        static int requestQueueSize(int paletteSize) {
            return Math.max(MAX_QUEUED_COMMANDS, WHOLE_REQUESTS_QUEUED * paletteSize);
        }

        /** Lettuce's default back-off grows to 30 s; a returning Redis should be used within a second. */
        @Bean
        ClientResourcesBuilderCustomizer reconnectWithinASecond() {
            return resources -> resources.reconnectDelay(
                    Delay.exponential(Duration.ofMillis(50), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS));
        }

        /**
         * The timer that holds every command's timeout (see {@link #failFast()}). A completed command
         * stays reachable, with its keys, its reply and, on the reactive path, the request's subscriber
         * chain, until the timer's next tick. Lettuce's own timer ticks every 100 ms, so every young
         * collection would copy the last requests; a 10 ms tick lets go of them ten times sooner.
         * See docs/measuring.md#client-settings.
         */
        @Bean(destroyMethod = "stop")
        HashedWheelTimer commandTimeoutTimer() {
            return new HashedWheelTimer(new DefaultThreadFactory("lettuce-timer", true), COMMAND_TIMER_TICK_MILLIS, TimeUnit.MILLISECONDS);
        }

        @Bean
        ClientResourcesBuilderCustomizer commandTimeoutsOnAFineTimer(HashedWheelTimer commandTimeoutTimer) {
            return resources -> resources.timer(commandTimeoutTimer);
        }
    }
}
