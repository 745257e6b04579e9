package dev.colorbench.core;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.ClientOptions.DisconnectedBehavior;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.resource.Delay;
import io.netty.util.HashedWheelTimer;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.apache.catalina.core.StandardHost;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * What every pattern module gets from the core by depending on it: the HTTP contract for a
 * {@link ColorStore} or an {@link EncodedColorStore}, a problem body for every error it answers, seeding at start-up, fast 503s
 * when its store (Redis or the database) is away, the {@link ColorCodec} and the checks that turn bad data in Redis into a
 * miss, and Lettuce settings that fail fast instead of queueing.
 */
@AutoConfiguration
public class ColorApiAutoConfiguration {

    @Bean
    @ConditionalOnWebApplication(type = Type.SERVLET)
    @ConditionalOnBean(ColorStore.class)
    ColorController colorController(ColorStore store) {
        return new ColorController(store);
    }

    @Bean
    @ConditionalOnWebApplication(type = Type.SERVLET)
    @ConditionalOnBean(EncodedColorStore.class)
    EncodedColorController encodedColorController(EncodedColorStore store) {
        return new EncodedColorController(store);
    }

    @Bean
    @ConditionalOnWebApplication
    UnexpectedErrorHandler unexpectedErrorHandler() {
        return new UnexpectedErrorHandler();
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(DataAccessException.class)
    static class DataAccessConfiguration {

        private static final Logger log = LoggerFactory.getLogger(DataAccessConfiguration.class);

        @Bean
        StoreUnavailableHandler storeUnavailableHandler() {
            return new StoreUnavailableHandler();
        }

        @Bean
        @ConditionalOnMissingBean
        ColorCodec colorCodec(JsonMapper jsonMapper) {
            return new ColorCodec(jsonMapper);
        }

        /**
         * A module that cannot seed at start-up (write its Redis keys, or migrate its database schema)
         * still starts; its first read seeds instead.
         */
        @Bean
        @ConditionalOnBean(ColorSeeder.class)
        ApplicationRunner seedAtStartup(ColorSeeder seeder) {
            return args -> {
                try {
                    seeder.seed();
                }
                catch (DataAccessException ex) {
                    log.warn("Could not seed the store at start-up ({}); will seed on first read", ex.getClass().getSimpleName());
                }
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(RedisConnectionFactory.class)
    static class RedisKeysConfiguration {

        /** The layout of the {@code colors::v3} JSON strings: plain, or hash-tagged into one cluster slot ({@link JsonKeys}). */
        @Bean
        @ConditionalOnMissingBean
        JsonKeys jsonKeys(Environment environment) {
            return JsonKeys.of(environment.getProperty(JsonKeys.HASH_TAG_PROPERTY, Boolean.class, false));
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({ StandardHost.class, ConfigurableTomcatWebServerFactory.class })
    @ConditionalOnWebApplication(type = Type.SERVLET)
    static class TomcatConfiguration {

        /** Runs after Spring Boot's own Tomcat customizer, so that its error valve is replaced. */
        @Bean
        WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory> problemBodiesForTomcatErrors() {
            return factory -> factory.addContextCustomizers(
                    context -> ProblemErrorReportValve.install((StandardHost) context.getParent()));
        }
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
         * The timer that holds every command's timeout (see {@link #failFast()}). A command that
         * completes cancels its timeout, but the timer lets go of it, and so of the command with its
         * keys, its reply and, on the reactive path, the request's whole subscriber chain, only at
         * its next tick. Lettuce's own timer ticks every 100 ms: at a few thousand requests a second
         * every young collection found the last 50 ms or so of requests still alive (7.8 MB of
         * survivors in template-mget, 17.8 MB in reactive-mget, measured with {@code -Xlog:gc*}) and
         * copied them, and the pauses grew with it. With a 10 ms tick: 1.2 and 2.5 MB.
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
