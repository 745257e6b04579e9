package dev.colorbench.redis.nearcache;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.cache.Cache;
import org.springframework.cache.transaction.TransactionAwareCacheDecorator;
import org.springframework.data.redis.cache.BatchStrategies;
import org.springframework.data.redis.cache.CacheStatisticsCollector;
import org.springframework.data.redis.cache.RedisCache;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.cache.RedisCacheWriter;
import org.springframework.data.redis.cache.RedisCacheWriter.TtlFunction;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.util.ByteUtils;

/**
 * A {@link RedisCacheManager} whose caches keep a near copy that Redis invalidates: each Spring cache is
 * a {@link NearRedisCache}, which reads through a {@link NearCache} of the same name and writes as
 * {@link RedisCache} does. The keys and values in Redis are {@code RedisCache}'s, so an application
 * moves between the two managers by configuration. Made by {@link NearCacheManagerAutoConfiguration}
 * from Spring Boot's cache settings, or by {@link #builder}.
 *
 * <p>Its writes wait for Redis's answer (no asynchronous writes): a write is then in Redis, and out
 * of this instance's copy, when {@code @CachePut} or {@code @CacheEvict} returns. A clear deletes by
 * {@code SCAN}, never {@code KEYS}.
 *
 * <p><b>Refused when a cache is made</b> (at start-up for the caches it knows then), naming the setting,
 * because the cache could not keep a near copy or would keep a stale one:
 * <ul>
 * <li>a cache's key prefix that no tracked prefix ({@code redis.near-cache.prefixes}) covers: Redis
 * would report no write to its keys, and the cache would read Redis every time, silently;</li>
 * <li>keys not serialized as UTF-8 strings: the copy knows keys by those bytes;</li>
 * <li>time-to-idle: a read from the copy sends no command, so it cannot extend a key's TTL;</li>
 * <li>a time-to-live while {@code redis.near-cache.read-ttl} is off: the copy would outlive the key.</li>
 * </ul>
 * The prefix check is skipped while the near cache is turned off ({@code redis.near-cache.enabled=false}),
 * as the tracking's own checks are.
 */
public class NearCacheManager extends RedisCacheManager implements DisposableBean {

    /** Keys asked per SCAN when a cache is cleared. */
    static final int SCAN_BATCH = 1000;

    private final NearCacheTracking tracking;

    private final CacheStatisticsCollector statistics;

    /** Where the caches' asynchronous reads read a key their copy lacks. */
    private final Executor reads;

    /** The executor the manager made for those reads, when none was given: shut down with the manager. */
    private final ExecutorService ownReads;

    /** The caches made so far, each once: closed with the manager. */
    private final Map<String, NearRedisCache> made = new ConcurrentHashMap<>();

    private NearCacheManager(Builder builder, RedisCacheWriter cacheWriter, CacheStatisticsCollector statistics) {
        super(cacheWriter, builder.defaults, builder.allowRuntimeCacheCreation, builder.initialCaches);
        this.tracking = builder.tracking;
        this.statistics = statistics;
        this.ownReads = (builder.reads == null) ? Executors.newCachedThreadPool(NearCacheManager::readThread) : null;
        this.reads = (builder.reads == null) ? ownReads : builder.reads;
        setTransactionAware(builder.transactionAware);
    }

    /** A builder of a manager on {@code tracking}, writing through {@code connectionFactory}, the one the tracking follows. */
    public static Builder builder(NearCacheTracking tracking, RedisConnectionFactory connectionFactory) {
        return new Builder(tracking, connectionFactory);
    }

    /**
     * The cache named {@code name}, as {@link #getCache} makes it, without the transaction-aware
     * decorator if there is one: for {@link NearRedisCache#getAll}. Null when there is none and the
     * manager makes none at run time.
     */
    public NearRedisCache getNearCache(String name) {
        Cache cache = getCache(name);
        if (cache instanceof TransactionAwareCacheDecorator decorator) {
            cache = decorator.getTargetCache();
        }
        return (NearRedisCache) cache;
    }

    /** Checks the configuration against the tracked prefixes first; the cache's near cache is named {@code name}. */
    @Override
    protected RedisCache createRedisCache(String name, RedisCacheConfiguration cacheConfiguration) {
        RedisCacheConfiguration configuration = (cacheConfiguration != null) ? cacheConfiguration : getDefaultCacheConfiguration();
        check(name, configuration, tracking.properties());
        return made.compute(name, (key, previous) -> {
            if (previous != null) {
                previous.nearCache().close(); // made again (the caches initialized again): the old one is read no more
            }
            return new NearRedisCache(name, getCacheWriter(), configuration, tracking, statistics, reads);
        });
    }

    /** As {@link RedisCacheManager#resetCaches()}, and then every copy is emptied, whatever the reset strategy did. */
    @Override
    public void resetCaches() {
        try {
            super.resetCaches();
        }
        finally {
            made.values().forEach(cache -> cache.nearCache().cleared());
        }
    }

    /** Closes the near caches: the tracking stops sending them invalidations. */
    @Override
    public void destroy() {
        made.values().forEach(cache -> cache.nearCache().close());
        if (ownReads != null) {
            ownReads.shutdown();
        }
    }

    /** A thread of the manager's own executor for asynchronous reads: a daemon, named for a thread dump. */
    private static Thread readThread(Runnable read) {
        Thread thread = new Thread(read, "near-cache-retrieve");
        thread.setDaemon(true);
        return thread;
    }

    /**
     * Refuses a cache the near cache cannot serve right, naming the setting.
     *
     * @throws InvalidConfigurationPropertyValueException for a key prefix that no tracked prefix covers
     * @throws NearCacheSetupException for a configuration the near cache cannot keep right
     */
    static void check(String name, RedisCacheConfiguration configuration, NearCacheProperties properties) {
        if (configuration.isTimeToIdleEnabled()) {
            throw new NearCacheSetupException("The cache '" + name + "' has time-to-idle on (RedisCacheConfiguration.enableTimeToIdle()), which a"
                    + " near cache cannot keep: a read from the copy sends Redis no command, so it cannot extend the key's TTL.", "Turn"
                    + " time-to-idle off, or use RedisCacheManager for this cache.");
        }
        for (String probe : List.of("key", "clé:€:\uD83D\uDE00:*")) {
            byte[] serialized = ByteUtils.getBytes(configuration.getKeySerializationPair().write(probe));
            if (!Arrays.equals(serialized, probe.getBytes(StandardCharsets.UTF_8))) {
                throw new NearCacheSetupException("The cache '" + name + "' does not write its keys as UTF-8 strings (RedisCacheConfiguration"
                        + ".serializeKeysWith), and a near cache knows keys by those bytes.", "Keep the default, RedisSerializer.string().");
            }
        }
        if (!properties.isReadTtl() && !TtlFunction.persistent().equals(configuration.getTtlFunction())) {
            throw new InvalidConfigurationPropertyValueException("redis.near-cache.read-ttl", false, "The cache '" + name + "' writes its keys"
                    + " with a time-to-live (spring.cache.redis.time-to-live, or RedisCacheConfiguration.entryTtl), and without reading it"
                    + " the copy could serve a key after Redis expired it. Leave redis.near-cache.read-ttl on (the default).");
        }
        if (!properties.isEnabled()) {
            return;
        }
        String keyPrefix = configuration.usePrefix() ? configuration.getKeyPrefixFor(name) : "";
        byte[] prefixBytes = keyPrefix.getBytes(StandardCharsets.UTF_8);
        List<String> tracked = properties.getPrefixes();
        boolean covered = tracked.stream().map(prefix -> prefix.getBytes(StandardCharsets.UTF_8))
                .anyMatch(prefix -> prefix.length <= prefixBytes.length && Arrays.equals(prefixBytes, 0, prefix.length, prefix, 0, prefix.length));
        if (!covered) {
            String why = "Redis would report no write to them, so the cache would keep no near copy and read Redis every time.";
            throw new InvalidConfigurationPropertyValueException("redis.near-cache.prefixes", String.join(",", tracked), configuration.usePrefix()
                    ? "The cache '" + name + "' keeps its keys under '" + keyPrefix + "', and none of the tracked prefixes covers them: " + why
                            + " Add '" + keyPrefix + "', or a prefix of it, to redis.near-cache.prefixes."
                    : "The cache '" + name + "' keeps its keys without a prefix (spring.cache.redis.use-key-prefix=false, or"
                            + " RedisCacheConfiguration.disableKeyPrefix()), which no tracked prefix can cover: " + why + " Give its keys a"
                            + " prefix, and add it to redis.near-cache.prefixes.");
        }
    }

    /**
     * What a {@link NearCacheManager} is made of: as {@code RedisCacheManager.builder}, for the settings a
     * near cache takes. Statistics, if enabled, count the reads from the copy as hits.
     */
    public static final class Builder {

        private final NearCacheTracking tracking;

        private final RedisConnectionFactory connectionFactory;

        private RedisCacheConfiguration defaults = RedisCacheConfiguration.defaultCacheConfig();

        private final Map<String, RedisCacheConfiguration> initialCaches = new LinkedHashMap<>();

        private boolean allowRuntimeCacheCreation = true;

        private boolean statistics;

        private boolean transactionAware;

        private Executor reads;

        private Builder(NearCacheTracking tracking, RedisConnectionFactory connectionFactory) {
            this.tracking = tracking;
            this.connectionFactory = connectionFactory;
        }

        /** The configuration of every cache not given one of its own: key prefix, serializers, time-to-live, null values. */
        public Builder cacheDefaults(RedisCacheConfiguration configuration) {
            this.defaults = configuration;
            return this;
        }

        /** A cache made at start-up, with a configuration of its own. */
        public Builder withCacheConfiguration(String name, RedisCacheConfiguration configuration) {
            initialCaches.put(name, configuration);
            return this;
        }

        /** Whether a cache not made at start-up is made when first asked for, with the defaults; true unless set. */
        public Builder allowCreateOnMissingCache(boolean allow) {
            this.allowRuntimeCacheCreation = allow;
            return this;
        }

        /** Counts gets, hits, misses, puts and deletes, for {@link RedisCache#getStatistics()} and Spring Boot's cache meters. */
        public Builder enableStatistics() {
            this.statistics = true;
            return this;
        }

        /**
         * Where a cache's asynchronous read ({@code retrieve}, for a {@code CompletableFuture} or reactive {@code @Cacheable})
         * reads a key its copy lacks, which blocks for up to {@code redis.near-cache.read-timeout}. Unset, the manager makes
         * a pool of daemon threads of its own, which grows with the reads under way; Spring Boot's auto-configuration gives
         * its application task executor ({@code spring.task.execution.*}) instead.
         */
        public Builder asynchronousReads(Executor executor) {
            this.reads = executor;
            return this;
        }

        /** Puts and evictions inside a Spring transaction wait for its commit. */
        public Builder transactionAware() {
            this.transactionAware = true;
            return this;
        }

        public NearCacheManager build() {
            CacheStatisticsCollector collector = statistics ? CacheStatisticsCollector.create() : CacheStatisticsCollector.none();
            RedisCacheWriter writer = RedisCacheWriter.create(connectionFactory, writerSettings -> writerSettings.immediateWrites()
                    .batchStrategy(BatchStrategies.scan(SCAN_BATCH)).collectStatistics(collector));
            return new NearCacheManager(this, writer, collector);
        }
    }
}
