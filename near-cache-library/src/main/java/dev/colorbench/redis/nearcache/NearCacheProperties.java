package dev.colorbench.redis.nearcache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.util.unit.DataSize;

/**
 * What an application tunes, under {@code redis.near-cache}. Everything else is the application's
 * own Lettuce client: URL, password, TLS, the command time-out ({@code spring.data.redis.timeout}) and
 * the reconnect back-off apply to the tracking connections too. {@link #validate()} checks each value
 * at start-up, and a value out of range stops the application, naming the property.
 */
@ConfigurationProperties("redis.near-cache")
public class NearCacheProperties {

    /** Whether the near cache keeps copies. Off, every read goes to Redis with one MGET and nothing is tracked. */
    private boolean enabled = true;

    /**
     * The key prefixes Redis reports writes under ({@code CLIENT TRACKING ON BCAST PREFIX ...}). Required: every
     * write under them is pushed to every instance, so name only the keys you cache. Only keys under them are kept;
     * others are read through, never kept.
     */
    private List<String> prefixes = new ArrayList<>();

    /** How often each tracking connection is sent a PING while it tracks, to notice a connection gone silent without closing. */
    private Duration heartbeat = Duration.ofMillis(250);

    /** How long a heartbeat PING may go unanswered before the copies stop answering; they answer again when it comes. */
    private Duration heartbeatTimeout = Duration.ofSeconds(1);

    /** The most each cache's copy holds, weighed as each key and the bytes Redis held for it; derived values weigh what they were made of. Default: a tenth of the heap. */
    private DataSize maximumMemory;

    /** How long a value is kept at most, a safety net whatever the invalidations do; sooner when Redis gives the key a TTL. */
    private Duration timeToLive = Duration.ofMinutes(10);

    /** Whether a miss also reads each key's TTL (one PTTL a key, in the same round trip), so that no value outlives its key. Off only when nothing under the prefixes has a TTL. */
    private boolean readTtl = true;

    /** On a Redis Cluster, how often the library asks a master which masters own slots: how long a master it does not track can go unnoticed. */
    private Duration topologyRefresh = Duration.ofSeconds(1);

    /** Spring's caches, behind {@code @Cacheable}. */
    private final CacheManager cacheManager = new CacheManager();

    /** {@code redis.near-cache.cache-manager}: the {@link NearCacheManager}. */
    public static class CacheManager {

        /** Whether Spring's caches keep a near copy ({@link NearCacheManager}); needs {@code @EnableCaching}. */
        private boolean enabled;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }

    /**
     * Checks every value, as Spring Boot's failure analysis reports it: the property, its value and why.
     *
     * @throws InvalidConfigurationPropertyValueException for the first value out of range
     */
    public void validate() {
        if (prefixes == null || prefixes.isEmpty() || prefixes.stream().anyMatch(prefix -> prefix == null || prefix.isEmpty())) {
            throw new InvalidConfigurationPropertyValueException("redis.near-cache.prefixes", prefixes,
                    "Name the key prefixes to cache, such as 'items::'. Redis pushes every write under them to every instance, so there is"
                            + " no default of every key, and an empty prefix is every key.");
        }
        positive("redis.near-cache.heartbeat", heartbeat);
        positive("redis.near-cache.heartbeat-timeout", heartbeatTimeout);
        positive("redis.near-cache.time-to-live", timeToLive);
        positive("redis.near-cache.topology-refresh", topologyRefresh);
        if (maximumMemory != null && maximumMemory.toBytes() <= 0) {
            throw new InvalidConfigurationPropertyValueException("redis.near-cache.maximum-memory", maximumMemory, "It must be above 0 bytes.");
        }
    }

    private static void positive(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new InvalidConfigurationPropertyValueException(name, value, "It must be a duration above 0.");
        }
    }

    /** The bound in bytes of each cache's copy: {@link #getMaximumMemory()}, or a tenth of the heap. */
    long maximumBytes() {
        return (maximumMemory != null) ? maximumMemory.toBytes() : Runtime.getRuntime().maxMemory() / 10;
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public CacheManager getCacheManager() {
        return cacheManager;
    }

    public List<String> getPrefixes() {
        return prefixes;
    }

    public void setPrefixes(List<String> prefixes) {
        this.prefixes = prefixes;
    }

    public Duration getHeartbeat() {
        return heartbeat;
    }

    public void setHeartbeat(Duration heartbeat) {
        this.heartbeat = heartbeat;
    }

    public Duration getHeartbeatTimeout() {
        return heartbeatTimeout;
    }

    public void setHeartbeatTimeout(Duration heartbeatTimeout) {
        this.heartbeatTimeout = heartbeatTimeout;
    }

    public DataSize getMaximumMemory() {
        return maximumMemory;
    }

    public void setMaximumMemory(DataSize maximumMemory) {
        this.maximumMemory = maximumMemory;
    }

    public Duration getTimeToLive() {
        return timeToLive;
    }

    public void setTimeToLive(Duration timeToLive) {
        this.timeToLive = timeToLive;
    }

    public boolean isReadTtl() {
        return readTtl;
    }

    public void setReadTtl(boolean readTtl) {
        this.readTtl = readTtl;
    }

    public Duration getTopologyRefresh() {
        return topologyRefresh;
    }

    public void setTopologyRefresh(Duration topologyRefresh) {
        this.topologyRefresh = topologyRefresh;
    }
}
