package dev.colorbench.redis.nearcache;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executor;

import org.springframework.aop.framework.autoproxy.AutoProxyUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.cache.autoconfigure.CacheManagerCustomizer;
import org.springframework.boot.cache.autoconfigure.CacheManagerCustomizers;
import org.springframework.boot.cache.autoconfigure.CacheProperties;
import org.springframework.boot.cache.autoconfigure.RedisCacheManagerBuilderCustomizer;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.AnnotationCacheOperationSource;
import org.springframework.cache.interceptor.CacheAspectSupport;
import org.springframework.cache.interceptor.CacheOperation;
import org.springframework.cache.interceptor.CacheOperationSource;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.ResourceLoader;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.cache.RedisCacheManager.RedisCacheManagerBuilder;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.serializer.JdkSerializationRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * The {@link NearCacheManager} behind {@code @Cacheable}, when the application asks for it with
 * {@code redis.near-cache.cache-manager.enabled=true}, has {@code @EnableCaching}, and names no other
 * cache type ({@code spring.cache.type} unset or {@code redis}). It takes the place of Spring Boot's
 * {@code RedisCacheManager}, from the same settings: {@code spring.cache.redis.*} or a
 * {@link RedisCacheConfiguration} bean, {@code spring.cache.cache-names}, the
 * {@link RedisCacheManagerBuilderCustomizer}s (their cache configurations, whether caches are made on
 * demand, transaction awareness) and the {@link CacheManagerCustomizer}s.
 *
 * <p>At start-up, every cache that a {@code @Cacheable}, {@code @CachePut} or {@code @CacheEvict} of a
 * bean names is made, so that one whose keys the tracked prefixes do not cover stops the application
 * then, not at its first use.
 */
@AutoConfiguration(after = NearCacheAutoConfiguration.class, beforeName = "org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration")
@ConditionalOnClass(name = "org.springframework.boot.cache.autoconfigure.CacheProperties")
@ConditionalOnBooleanProperty("redis.near-cache.cache-manager.enabled")
@ConditionalOnProperty(name = "spring.cache.type", havingValue = "redis", matchIfMissing = true)
@ConditionalOnBean({ NearCacheTracking.class, CacheAspectSupport.class })
@ConditionalOnMissingBean(CacheManager.class)
@EnableConfigurationProperties(CacheProperties.class)
public class NearCacheManagerAutoConfiguration {

    /** The name of Spring Boot's application task executor bean, which the caches' asynchronous reads run on when there is one. */
    static final String APPLICATION_TASK_EXECUTOR = "applicationTaskExecutor";

    @Bean
    NearCacheManager cacheManager(NearCacheTracking tracking, RedisConnectionFactory redisConnectionFactory, CacheProperties cacheProperties,
            ObjectProvider<RedisCacheConfiguration> redisCacheConfiguration,
            ObjectProvider<RedisCacheManagerBuilderCustomizer> builderCustomizers, ObjectProvider<CacheManagerCustomizer<?>> customizers,
            ResourceLoader resourceLoader, @Qualifier(APPLICATION_TASK_EXECUTOR) ObjectProvider<Executor> applicationTaskExecutor) {
        RedisCacheConfiguration defaults = redisCacheConfiguration.getIfAvailable(() -> fromProperties(cacheProperties.getRedis(),
                resourceLoader.getClassLoader()));
        // Spring Boot's own builder, so that its customizers run as they would for RedisCacheManager; the manager takes what it can read back
        RedisCacheManagerBuilder stock = RedisCacheManager.builder(redisConnectionFactory).cacheDefaults(defaults);
        if (!cacheProperties.getCacheNames().isEmpty()) {
            stock.initialCacheNames(new LinkedHashSet<>(cacheProperties.getCacheNames()));
        }
        builderCustomizers.orderedStream().forEach(customizer -> customizer.customize(stock));
        RedisCacheManager customized = stock.build();
        NearCacheManager.Builder near = NearCacheManager.builder(tracking, redisConnectionFactory).cacheDefaults(stock.cacheDefaults())
                .allowCreateOnMissingCache(customized.isAllowRuntimeCacheCreation());
        stock.getConfiguredCaches().forEach(name -> near.withCacheConfiguration(name, stock.getCacheConfigurationFor(name).orElseThrow()));
        if (cacheProperties.getRedis().isEnableStatistics()) {
            near.enableStatistics();
        }
        if (customized.isTransactionAware()) {
            near.transactionAware();
        }
        // Spring Boot's executor for the application's own asynchronous work, sized by spring.task.execution.*, virtual threads if on
        applicationTaskExecutor.ifAvailable(near::asynchronousReads);
        return new CacheManagerCustomizers(customizers.orderedStream().toList()).customize(near.build());
    }

    /** As Spring Boot makes it from {@code spring.cache.redis.*}: values in Java serialization, the prefix {@code <cache name>::}. */
    static RedisCacheConfiguration fromProperties(CacheProperties.Redis properties, ClassLoader classLoader) {
        RedisCacheConfiguration configuration = RedisCacheConfiguration.defaultCacheConfig()
                .serializeValuesWith(SerializationPair.fromSerializer(new JdkSerializationRedisSerializer(classLoader)));
        if (properties.getTimeToLive() != null) {
            configuration = configuration.entryTtl(properties.getTimeToLive());
        }
        if (properties.getKeyPrefix() != null) {
            configuration = configuration.prefixCacheNameWith(properties.getKeyPrefix());
        }
        if (!properties.isCacheNullValues()) {
            configuration = configuration.disableCachingNullValues();
        }
        if (!properties.isUseKeyPrefix()) {
            configuration = configuration.disableKeyPrefix();
        }
        return configuration;
    }

    @Bean
    AnnotatedCaches nearCacheManagerAnnotatedCaches(ObjectProvider<NearCacheManager> cacheManager,
            ObjectProvider<CacheOperationSource> cacheOperationSource, ConfigurableListableBeanFactory beanFactory) {
        return new AnnotatedCaches(cacheManager, cacheOperationSource, beanFactory);
    }

    /**
     * Once every singleton is made, makes each cache the caching annotations of the beans name, through
     * the manager: its checks then run at start-up. Caches named only at run time (a
     * {@code CacheResolver}, {@code getCache} in code) are checked when first made.
     */
    static final class AnnotatedCaches implements SmartInitializingSingleton {

        private final ObjectProvider<NearCacheManager> cacheManager;

        private final ObjectProvider<CacheOperationSource> cacheOperationSource;

        private final ConfigurableListableBeanFactory beanFactory;

        AnnotatedCaches(ObjectProvider<NearCacheManager> cacheManager, ObjectProvider<CacheOperationSource> cacheOperationSource,
                ConfigurableListableBeanFactory beanFactory) {
            this.cacheManager = cacheManager;
            this.cacheOperationSource = cacheOperationSource;
            this.beanFactory = beanFactory;
        }

        @Override
        public void afterSingletonsInstantiated() {
            NearCacheManager manager = cacheManager.getIfAvailable();
            if (manager == null) {
                return;
            }
            CacheOperationSource source = cacheOperationSource.getIfAvailable(AnnotationCacheOperationSource::new);
            names(source).forEach(manager::getCache);
        }

        /** The cache names of every caching annotation on the beans' classes, sorted. */
        Set<String> names(CacheOperationSource source) {
            Set<String> names = new TreeSet<>();
            for (String bean : beanFactory.getBeanDefinitionNames()) {
                Class<?> type;
                try {
                    type = AutoProxyUtils.determineTargetClass(beanFactory, bean);
                }
                catch (RuntimeException ex) {
                    continue; // a type that cannot be resolved, such as a lazy bean's: as Spring's own event listener scan does
                }
                if (type == null) {
                    continue;
                }
                Class<?> target = ClassUtils.getUserClass(type);
                if (!source.isCandidateClass(target)) {
                    continue;
                }
                ReflectionUtils.doWithMethods(target, method -> {
                    Collection<CacheOperation> operations = source.getCacheOperations(method, target);
                    if (operations != null) {
                        operations.forEach(operation -> names.addAll(operation.getCacheNames()));
                    }
                });
            }
            return names;
        }
    }
}
