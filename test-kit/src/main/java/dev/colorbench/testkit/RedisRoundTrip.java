package dev.colorbench.testkit;

import java.time.Duration;
import java.util.Arrays;

import dev.colorbench.testkit.statistics.Statistics;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * The round trip to one Redis on two paths (directly, and through a {@link DelayProxy} or any other
 * way the modules take), measured with PINGs. At loopback scale a single median moves by more than a
 * proxy's own cost (a cold connection, the JIT, the other core's load), so both connections are warmed
 * first, the PINGs alternate between the paths, and what the second path adds is the median of the
 * paired differences: drift the two paths share cancels out.
 */
public final class RedisRoundTrip {

    private static final int WARM_UP_PINGS = 300;

    private static final int PAIRS = 501;

    private RedisRoundTrip() {
    }

    /**
     * Medians in milliseconds: of the direct round trips, of the path's, and of the path's minus the direct one, pair by
     * pair; and the least of the path's round trips. Load on the machine only lengthens a round trip, so the least one
     * is never below what the path holds, and on a loaded machine still near it.
     */
    public record Measured(double directMillis, double pathMillis, double addedMillis, double pathLeastMillis) {
    }

    /** Measures both paths to the same Redis ({@code pathUrl} may equal {@code directUrl}). */
    public static Measured measure(String directUrl, String pathUrl) {
        RedisClient client = RedisClient.create();
        try (StatefulRedisConnection<String, String> direct = client.connect(RedisURI.create(directUrl));
                StatefulRedisConnection<String, String> path = client.connect(RedisURI.create(pathUrl))) {
            for (int i = 0; i < WARM_UP_PINGS; i++) {
                direct.sync().ping();
                path.sync().ping();
            }
            double[] directMillis = new double[PAIRS];
            double[] pathMillis = new double[PAIRS];
            double[] addedMillis = new double[PAIRS];
            for (int i = 0; i < PAIRS; i++) {
                directMillis[i] = pingMillis(direct.sync());
                pathMillis[i] = pingMillis(path.sync());
                addedMillis[i] = pathMillis[i] - directMillis[i];
            }
            return new Measured(Statistics.median(directMillis), Statistics.median(pathMillis), Statistics.median(addedMillis), Arrays.stream(pathMillis).min().orElseThrow());
        }
        finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    private static double pingMillis(RedisCommands<String, String> redis) {
        long start = System.nanoTime();
        redis.ping();
        return (System.nanoTime() - start) / 1e6;
    }
}
