package dev.colorbench.redis.nearcache;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * One {@link NearCacheTracking} per application, on Spring Boot's Redis connection factory, which
 * must be Lettuce's: the application makes its {@link NearCache}s from it.
 */
@AutoConfiguration(after = DataRedisAutoConfiguration.class)
@ConditionalOnClass(LettuceConnectionFactory.class)
@ConditionalOnBean(RedisConnectionFactory.class)
@EnableConfigurationProperties(NearCacheProperties.class)
public class NearCacheAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    NearCacheTracking nearCacheTracking(RedisConnectionFactory redisConnectionFactory, NearCacheProperties properties) {
        return new NearCacheTracking(redisConnectionFactory, properties);
    }
}
