package dev.colorbench.redis.nearcache;

import io.lettuce.core.ReadFrom;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientConfigurationBuilderCustomizer;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Boot's own ways to read from replicas stop the application at start-up, with a message that
 * names the setting; turned off, the near cache lets them be. Nothing connects: the context fails, or
 * is checked, before any Redis command.
 */
class NearCacheAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, NearCacheAutoConfiguration.class))
            .withPropertyValues("redis.near-cache.prefixes=items::", "spring.data.redis.url=redis://127.0.0.1:1");

    @Test
    void readFromAReplicaIsRefused() {
        runner.withPropertyValues("spring.data.redis.lettuce.read-from=replica-preferred").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("ReadFrom").hasMessageContaining("redis.near-cache.enabled=false");
        });
    }

    @Test
    void aCustomizerThatReadsFromReplicasIsRefused() {
        runner.withBean(LettuceClientConfigurationBuilderCustomizer.class, () -> builder -> builder.readFrom(ReadFrom.REPLICA)).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("ReadFrom");
        });
    }

    @Test
    void masterReplicaIsRefused() {
        runner.withPropertyValues("spring.data.redis.masterreplica.nodes=127.0.0.1:1,127.0.0.1:2").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("spring.data.redis.masterreplica.nodes");
        });
    }

    @Test
    void noPrefixesStopTheApplicationNamingTheProperty() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, NearCacheAutoConfiguration.class))
                .withPropertyValues("spring.data.redis.url=redis://127.0.0.1:1").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("redis.near-cache.prefixes");
                });
    }

    @Test
    void turnedOffItTakesAnySetupAndTracksNothing() {
        runner.withPropertyValues("spring.data.redis.lettuce.read-from=replica", "redis.near-cache.enabled=false").run(context -> {
            assertThat(context).hasNotFailed();
            NearCacheTracking tracking = context.getBean(NearCacheTracking.class);
            assertThat(tracking.isEnabled()).isFalse();
            assertThat(tracking.isActive()).isFalse();
            assertThat(tracking.servers()).isEmpty();
        });
    }

    @Test
    void theMetersAndTheHealthIndicatorAreThere() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(NearCacheMetrics.class);
            assertThat(context).hasBean("nearCacheHealthIndicator");
        });
    }

    /** With no Redis to track (port 1), the copies never answer: the health is the status the property names, UNKNOWN by default. */
    @Test
    void whileTheCopiesDoNotAnswerTheHealthIsTheConfiguredStatus() {
        runner.run(context -> assertThat(health(context)).isEqualTo(Status.UNKNOWN));
        runner.withPropertyValues("redis.near-cache.health-while-not-answering=down").run(context -> assertThat(health(context)).isEqualTo(Status.DOWN));
        runner.withPropertyValues("redis.near-cache.health-while-not-answering=out-of-service")
                .run(context -> assertThat(health(context)).isEqualTo(Status.OUT_OF_SERVICE));
        runner.withPropertyValues("redis.near-cache.enabled=false", "redis.near-cache.health-while-not-answering=down")
                .run(context -> assertThat(health(context)).as("turned off").isEqualTo(Status.UP));
    }

    private static Status health(AssertableApplicationContext context) {
        assertThat(context).hasNotFailed();
        return context.getBean(NearCacheHealthIndicator.class).health().getStatus();
    }
}
