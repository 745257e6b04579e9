package dev.colorbench.redis.nearcache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * What an application tunes, under {@code redis.near-cache}. Everything else is the application's
 * own Lettuce client: URL, password, TLS, the command timeout ({@code spring.data.redis.timeout}) and
 * the reconnect back-off apply to the tracking connections too.
 */
@ConfigurationProperties("redis.near-cache")
public class NearCacheProperties {

    /**
     * The key prefixes Redis reports writes under ({@code CLIENT TRACKING ON BCAST PREFIX ...}). Only keys under
     * them may be read through a near cache: a write to any other key is never reported. Empty: every key.
     */
    private List<String> prefixes = new ArrayList<>();

    /** How often each tracking connection is sent a PING while it tracks, to notice a connection gone silent without closing. */
    private Duration heartbeat = Duration.ofMillis(250);

    /** How long a heartbeat PING may go unanswered before the connection counts as silent: dropped, and the copy with it. */
    private Duration heartbeatTimeout = Duration.ofSeconds(1);

    /** The most values each near cache's copy holds; beyond it Caffeine evicts the least used. */
    private long maximumSize = 10_000;

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

    public long getMaximumSize() {
        return maximumSize;
    }

    public void setMaximumSize(long maximumSize) {
        this.maximumSize = maximumSize;
    }
}
