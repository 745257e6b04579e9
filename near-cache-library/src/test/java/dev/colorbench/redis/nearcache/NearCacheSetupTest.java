package dev.colorbench.redis.nearcache;

import java.time.Duration;
import java.util.List;

import io.lettuce.core.ReadFrom;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The setups the staleness bound cannot hold in are refused when the tracking is made, at start-up,
 * naming the setting; so are properties out of range. Nothing here connects: the factories are never
 * started.
 */
class NearCacheSetupTest {

    @Test
    void readsFromReplicasAreRefused() {
        for (ReadFrom replicas : List.of(ReadFrom.REPLICA, ReadFrom.REPLICA_PREFERRED, ReadFrom.ANY, ReadFrom.LOWEST_LATENCY)) {
            LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(),
                    LettuceClientConfiguration.builder().readFrom(replicas).build());

            assertThatThrownBy(() -> new NearCacheTracking(factory, properties())).as("ReadFrom %s", replicas)
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("ReadFrom").hasMessageContaining("redis.near-cache.enabled=false");
        }
    }

    @Test
    void readsFromTheUpstreamAreTaken() {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(),
                LettuceClientConfiguration.builder().readFrom(ReadFrom.UPSTREAM).build());

        assertThatCode(() -> new NearCacheTracking(factory, properties())).doesNotThrowAnyException();
    }

    @Test
    void sentinelIsTaken() {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisSentinelConfiguration().master("mymaster").sentinel("127.0.0.1", 26379));

        assertThatCode(() -> new NearCacheTracking(factory, properties())).doesNotThrowAnyException();
    }

    @Test
    void aTurnedOffNearCacheRefusesNoSetup() {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(),
                LettuceClientConfiguration.builder().readFrom(ReadFrom.REPLICA).build());
        NearCacheProperties off = properties();
        off.setEnabled(false);

        assertThatCode(() -> new NearCacheTracking(factory, off)).doesNotThrowAnyException();
    }

    /** No silent "every key": Redis would push every write in the database to every instance. */
    @Test
    void prefixesAreRequired() {
        NearCacheProperties none = properties();
        none.setPrefixes(List.of());
        NearCacheProperties empty = properties();
        empty.setPrefixes(List.of("items::", ""));

        for (NearCacheProperties properties : List.of(none, empty)) {
            assertThatThrownBy(properties::validate).isInstanceOf(InvalidConfigurationPropertyValueException.class)
                    .extracting(ex -> ((InvalidConfigurationPropertyValueException) ex).getName()).isEqualTo("redis.near-cache.prefixes");
        }
    }

    @Test
    void durationsMustBeAboveZero() {
        NearCacheProperties heartbeat = properties();
        heartbeat.setHeartbeat(Duration.ZERO);
        NearCacheProperties silence = properties();
        silence.setHeartbeatTimeout(Duration.ofSeconds(-1));
        NearCacheProperties ttl = properties();
        ttl.setTimeToLive(Duration.ZERO);
        NearCacheProperties read = properties();
        read.setReadTimeout(Duration.ZERO);

        assertThatThrownBy(read::validate).hasMessageContaining("redis.near-cache.read-timeout");
        assertThatThrownBy(heartbeat::validate).hasMessageContaining("redis.near-cache.heartbeat");
        assertThatThrownBy(silence::validate).hasMessageContaining("redis.near-cache.heartbeat-timeout");
        assertThatThrownBy(ttl::validate).hasMessageContaining("redis.near-cache.time-to-live");
    }

    /** The time-to-live bounds what no check sees, so it has a bound of its own: an hour, refused above it, naming the property. */
    @Test
    void theTimeToLiveIsAtMostAnHour() {
        NearCacheProperties hour = properties();
        hour.setTimeToLive(Duration.ofHours(1));
        NearCacheProperties longer = properties();
        longer.setTimeToLive(Duration.ofMinutes(61));

        assertThatCode(hour::validate).doesNotThrowAnyException();
        assertThatThrownBy(longer::validate).isInstanceOf(InvalidConfigurationPropertyValueException.class)
                .hasMessageContaining("at most 60 minutes")
                .extracting(ex -> ((InvalidConfigurationPropertyValueException) ex).getName()).isEqualTo("redis.near-cache.time-to-live");
    }

    @Test
    void theDefaultsAreSafe() {
        NearCacheProperties defaults = new NearCacheProperties();

        assertThat(defaults.isEnabled()).isTrue();
        assertThat(defaults.getPrefixes()).as("none: to be named").isEmpty();
        assertThat(defaults.getTimeToLive()).as("a local expiry, on").isPositive();
        assertThat(defaults.isReadTtl()).as("keys with a TTL never kept past it").isTrue();
        assertThat(defaults.getReadTimeout()).as("a read fails fast when Redis does not answer").isEqualTo(Duration.ofSeconds(1));
        assertThat(defaults.maximumBytes()).as("a tenth of the heap").isEqualTo(Runtime.getRuntime().maxMemory() / 10);
    }

    /**
     * {@code maximum-memory} bounds all caches together: each open cache gets an equal share, and a cache that opens or
     * closes shares it again. Before, each cache had the whole budget.
     */
    @Test
    void theMemoryBudgetIsSharedByAllCaches() {
        NearCacheProperties properties = properties();
        properties.setMaximumMemory(DataSize.ofMegabytes(30));
        NearCacheTracking tracking = new NearCacheTracking(new LettuceConnectionFactory(new RedisStandaloneConfiguration()), properties);

        NearCache<String> first = tracking.newCache("first", (key, bytes) -> new String(bytes));
        assertThat(first.maximumBytes()).isEqualTo(DataSize.ofMegabytes(30).toBytes());
        NearCache<String> second = tracking.newCache("second", (key, bytes) -> new String(bytes));
        NearCache<String> third = tracking.newCache("third", (key, bytes) -> new String(bytes));
        assertThat(List.of(first, second, third)).extracting(NearCache::maximumBytes).containsOnly(DataSize.ofMegabytes(10).toBytes());
        third.close();
        assertThat(List.of(first, second)).extracting(NearCache::maximumBytes).containsOnly(DataSize.ofMegabytes(15).toBytes());
    }

    private static NearCacheProperties properties() {
        NearCacheProperties properties = new NearCacheProperties();
        properties.setPrefixes(List.of("items::"));
        return properties;
    }
}
