package dev.colorbench.redis.nearcache;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.cache.support.NullValue;
import org.springframework.util.unit.DataSize;

/**
 * What an application tunes, under {@code redis.near-cache}. Everything else is the application's
 * own Lettuce client: URL, password, TLS, the command time-out ({@code spring.data.redis.timeout}) and
 * the reconnect back-off apply to the tracking connections too. {@link #validate()} checks each value
 * at start-up, and a value out of range stops the application, naming the property.
 */
@ConfigurationProperties("redis.near-cache")
public class NearCacheProperties {

    /**
     * The longest {@link #getTimeToLive() time-to-live} taken: it bounds what no check sees (a single invalidation
     * lost while the next ones arrive), so it may not be unbounded.
     */
    public static final Duration MAX_TIME_TO_LIVE = Duration.ofHours(1);

    /** Whether the near cache keeps copies. Off, every read goes to Redis with one MGET and nothing is tracked. */
    private boolean enabled = true;

    /**
     * The key prefixes Redis reports writes under ({@code CLIENT TRACKING ON BCAST PREFIX ...}). Required: every
     * write under them is pushed to every instance, so name only the keys you cache. Only keys under them are kept;
     * others are read through, never kept.
     */
    private List<String> prefixes = new ArrayList<>();

    /**
     * How often each tracking connection is sent a PING while it tracks, to notice a connection gone silent without closing;
     * and, on a standalone Redis, how often the instance writes its canary, to notice invalidations that stop arriving.
     */
    private Duration heartbeat = Duration.ofMillis(250);

    /**
     * How long a heartbeat PING may go unanswered before the copies stop answering; they answer again when it comes. A canary's
     * proof lets the copies answer for heartbeat plus this, from when it was written.
     */
    private Duration heartbeatTimeout = Duration.ofSeconds(1);

    /**
     * How long a read of Redis through the near cache waits for its answer at most (the client's command time-out, if
     * shorter, bounds it too); while the application's connection to Redis is down, a read fails at once instead.
     */
    private Duration readTimeout = Duration.ofSeconds(1);

    /**
     * The most all caches' copies hold together, shared equally among the caches open, weighed as each key and the bytes Redis
     * held for it; derived values weigh what they were made of. Default: a tenth of the heap.
     */
    private DataSize maximumMemory;

    /** How long a value is kept at most, a safety net whatever the invalidations do; sooner when Redis gives the key a TTL. At most 1 hour. */
    private Duration timeToLive = Duration.ofMinutes(10);

    /** Whether a miss also reads each key's TTL (one PTTL a key, in the same round trip), so that no value outlives its key. Off only when nothing under the prefixes has a TTL. */
    private boolean readTtl = true;

    /** On a Redis Cluster, how often the library asks a master which servers are masters; under Sentinel, how often it asks a Sentinel which server is the master: how long a master it does not track can go unnoticed. */
    private Duration topologyRefresh = Duration.ofSeconds(1);

    /**
     * What the health indicator reports while the copies do not answer (reads then go to Redis, and are right): {@code unknown},
     * so that an instance stays in service, or {@code down} or {@code out-of-service}, for a platform that should notice.
     */
    private NotAnswering healthWhileNotAnswering = NotAnswering.UNKNOWN;

    /** Spring's caches, behind {@code @Cacheable}. */
    private final CacheManager cacheManager = new CacheManager();

    /** {@code redis.near-cache.cache-manager}: the {@link NearCacheManager}. */
    public static class CacheManager {

        /** Whether Spring's caches keep a near copy ({@link NearCacheManager}); needs {@code @EnableCaching}. */
        private boolean enabled;

        /**
         * Which decoded values a hit hands out as they are, the same object to every caller; the others are decoded again
         * from the stored bytes on each hit, a copy per caller, as {@code RedisCache} does.
         */
        private ShareValues shareValues = ShareValues.IMMUTABLE;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public ShareValues getShareValues() {
            return shareValues;
        }

        public void setShareValues(ShareValues shareValues) {
            this.shareValues = shareValues;
        }
    }

    /** A health status, by the code Spring Boot's actuator gives it: what the health indicator reports while the copies do not answer. */
    public enum NotAnswering {

        /** Neither up nor down: the instance stays in service, its reads going to Redis. */
        UNKNOWN,

        /** Down: the instance's health, and so its readiness where the health groups say so, is down. */
        DOWN,

        /** Out of service: down, as a status of its own. */
        OUT_OF_SERVICE
    }

    /**
     * Which values a {@code @Cacheable} hit hands out as they are. A shared value is decoded once, when it is read from
     * Redis, and costs a hit nothing; a caller that changed it would change what every later hit returns, so only values
     * no caller can change are shared by default. A value not shared is decoded on each hit from the bytes Redis held,
     * as {@code RedisCache} does on each read.
     */
    public enum ShareValues {

        /**
         * Values of a type that cannot change once made: records, enums, strings, boxed primitives, {@code BigInteger}
         * and {@code BigDecimal}, {@code UUID} and the {@code java.time} types. A record is shared as it is: its
         * components are as mutable as their own types (a list in a record is one the caller could change).
         */
        IMMUTABLE,

        /** Every value, as Spring's {@code ConcurrentMapCache} and Caffeine's caches do: no caller may change what a hit returns. */
        ALL,

        /** No value: each hit decodes the stored bytes, a copy per caller, as {@code RedisCache}. */
        NONE;

        private static final Set<Class<?>> IMMUTABLE_TYPES = Set.of(String.class, Boolean.class, Character.class, Byte.class,
                Short.class, Integer.class, Long.class, Float.class, Double.class, BigInteger.class, BigDecimal.class, UUID.class);

        /** Whether a hit hands out {@code value} as it is (null, and Spring's null marker, always are). */
        public boolean shares(Object value) {
            if (value == null || value instanceof NullValue) {
                return true;
            }
            return switch (this) {
                case ALL -> true;
                case NONE -> false;
                case IMMUTABLE -> {
                    Class<?> type = value.getClass();
                    yield type.isRecord() || value instanceof Enum<?> || IMMUTABLE_TYPES.contains(type)
                            || type.getPackageName().equals("java.time");
                }
            };
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
        positive("redis.near-cache.read-timeout", readTimeout);
        if (timeToLive.compareTo(MAX_TIME_TO_LIVE) > 0) {
            throw new InvalidConfigurationPropertyValueException("redis.near-cache.time-to-live", timeToLive, "It must be at most "
                    + MAX_TIME_TO_LIVE.toMinutes() + " minutes: it is the bound on what no check of the library's sees, such as one invalidation lost"
                    + " while the next ones arrive.");
        }
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

    /** The bound in bytes of all caches' copies together, shared equally among the caches open: {@link #getMaximumMemory()}, or a tenth of the heap. */
    long maximumBytes() {
        return (maximumMemory != null) ? maximumMemory.toBytes() : Runtime.getRuntime().maxMemory() / 10;
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public NotAnswering getHealthWhileNotAnswering() {
        return healthWhileNotAnswering;
    }

    public void setHealthWhileNotAnswering(NotAnswering healthWhileNotAnswering) {
        this.healthWhileNotAnswering = healthWhileNotAnswering;
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

    public Duration getReadTimeout() {
        return readTimeout;
    }

    public void setReadTimeout(Duration readTimeout) {
        this.readTimeout = readTimeout;
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
