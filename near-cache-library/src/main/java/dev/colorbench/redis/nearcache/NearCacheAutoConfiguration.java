package dev.colorbench.redis.nearcache;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * One {@link NearCacheTracking} per application, on Spring Boot's Redis connection factory, which
 * must be Lettuce's: the application makes its {@link NearCache}s from it. With Micrometer, its meters
 * ({@link NearCacheMetrics}); with Spring Boot's health support, its health indicator
 * ({@link NearCacheHealthIndicator}, {@code management.health.near-cache.enabled}).
 */
@AutoConfiguration(after = DataRedisAutoConfiguration.class)
@ConditionalOnClass(LettuceConnectionFactory.class)
@ConditionalOnBean(RedisConnectionFactory.class)
@EnableConfigurationProperties(NearCacheProperties.class)
public class NearCacheAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    NearCacheTracking nearCacheTracking(RedisConnectionFactory redisConnectionFactory, NearCacheProperties properties, Environment environment) {
        if (properties.isEnabled() && environment.containsProperty("spring.data.redis.masterreplica.nodes")) {
            throw new NearCacheSetupException("A near cache reads only from the servers it tracks, but spring.data.redis.masterreplica.nodes"
                    + " sets up reads from replicas, which lag behind the master whose invalidations the copy follows.", "Point"
                    + " spring.data.redis.url at the master, or turn the near cache off with redis.near-cache.enabled=false");
        }
        return new NearCacheTracking(redisConnectionFactory, properties);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
    static class Metrics {

        @Bean
        @ConditionalOnMissingBean
        NearCacheMetrics nearCacheMetrics(NearCacheTracking tracking) {
            return new NearCacheMetrics(tracking);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
    static class HealthCheck {

        @Bean
        @ConditionalOnMissingBean(name = "nearCacheHealthIndicator")
        @ConditionalOnEnabledHealthIndicator("near-cache")
        NearCacheHealthIndicator nearCacheHealthIndicator(NearCacheTracking tracking) {
            return new NearCacheHealthIndicator(tracking);
        }
    }
}
