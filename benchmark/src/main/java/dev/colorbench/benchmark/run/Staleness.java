package dev.colorbench.benchmark.run;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.colorbench.benchmark.Console;
import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.modules.Layout;
import dev.colorbench.testkit.statistics.Statistics;
import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorKeys;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

/**
 * How stale a row that answers from a local copy gets: another writer changes one color in Redis
 * (a plain {@code SET} of the key its layout keeps the color under, {@code colors::v3::<name>} or
 * cacheable-near-cache's {@code colors::v1::<name>}, on a connection of the run's own, a consistent
 * color a shade away), and the run asks the module for that color until it answers the new value. The
 * delay from the SET's reply to that answer (its HTTP round trip included) is the staleness; it is
 * measured over a few dozen writes after the measured runs, with no other load, each color made the
 * module's own first, and the palette is written back afterwards (and waited for: a row not known to
 * stay stale that keeps an old color fails the run). Not before the load: a row known to stay stale can
 * keep the color it was written for good, and would then fail every answer of the load.
 */
public final class Staleness {

    /** Writes measured per row. */
    static final int WRITES = 40;

    /** The longest a module may take to serve a change before the run calls it stale for good. */
    private static final Duration GIVE_UP = Duration.ofSeconds(5);

    /**
     * Changes in a row a row known to stay stale may leave unserved before the run stops writing to it: once its copy
     * stopped following Redis (Redisson's after a connection it re-opened, as when a PING timed out on a busy machine),
     * every further write would cost the whole {@link #GIVE_UP}, 40 of them over three minutes.
     */
    private static final int GIVE_UP_AFTER_UNSERVED = 3;

    /**
     * A row's staleness over its writes, in milliseconds, over the writes it served; {@code neverServed} writes it did not
     * serve within {@link #GIVE_UP} (only a row known to stay stale gets that far: for any other the run stops).
     */
    public record Result(String target, int writes, double medianMillis, double p90Millis, double maxMillis, int neverServed) {
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();

    static List<Result> measure(List<RunningModule> modules, String redisUrl) {
        List<RunningModule> nearCaches = modules.stream().filter(module -> module.target().module().nearCache() && !module.target().redisCluster()).toList();
        if (nearCaches.isEmpty()) {
            return List.of();
        }
        Staleness staleness = new Staleness();
        RedisClient client = RedisClient.create(redisUrl);
        try (StatefulRedisConnection<String, String> redis = client.connect()) {
            List<Result> results = new ArrayList<>();
            for (RunningModule module : nearCaches) {
                Result result = staleness.measure(module, redis);
                // a row that served none of its writes has no times to give (NaN), not a median of 0 ms
                String times = Double.isNaN(result.medianMillis()) ? "none served"
                        : "median %s ms, p90 %s ms, max %s ms".formatted(Format.number(round(result.medianMillis())), Format.number(round(result.p90Millis())),
                                Format.number(round(result.maxMillis())));
                Console.info("staleness of %s over %d writes: %s%s".formatted(result.target(), result.writes(), times,
                        result.neverServed() == 0 ? "" : "; %d never served (known stale)%s".formatted(result.neverServed(), result.writes() < WRITES
                                ? ", and no more written once %d in a row were not".formatted(GIVE_UP_AFTER_UNSERVED) : "")));
                results.add(result);
            }
            return results;
        }
        finally {
            client.shutdown();
        }
    }

    private Result measure(RunningModule module, StatefulRedisConnection<String, String> redis) {
        List<Color> palette = Palette.all();
        List<Double> millis = new ArrayList<>();
        int neverServed = 0;
        int unservedInARow = 0;
        int writes = 0;
        while (writes < WRITES && unservedInARow < GIVE_UP_AFTER_UNSERVED) {
            Color color = palette.get((writes++ * 37) % palette.size());
            String canonical = ColorJson.of(color);
            if (!served(module, color.name(), canonical)) {
                neverServed++;
                unservedInARow++;
                continue;
            }
            String changed = ColorJson.of(aShadeAway(color));
            String key = key(module.target().module().layout(), color.name());
            redis.sync().set(key, changed);
            long written = System.nanoTime();
            if (served(module, color.name(), changed)) {
                millis.add((System.nanoTime() - written) / 1e6);
                unservedInARow = 0;
            }
            else {
                neverServed++;
                unservedInARow++;
            }
            redis.sync().set(key, canonical);
        }
        for (Color color : palette) {
            // the canonical palette back in every answer; a row known to stay stale may keep an old color
            if (!served(module, color.name(), ColorJson.of(color)) && module.target().module().knownStale() == null) {
                throw stale(module, ColorJson.of(color));
            }
        }
        if (millis.isEmpty()) {
            return new Result(module.target().id(), writes, Double.NaN, Double.NaN, Double.NaN, neverServed);
        }
        double[] sorted = millis.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return new Result(module.target().id(), writes, Statistics.percentile(sorted, 50), Statistics.percentile(sorted, 90), sorted[sorted.length - 1],
                neverServed);
    }

    /** Whether the module answered {@code expected} for {@code name} within {@link #GIVE_UP}; a row not known to stay stale that did not stops the run. */
    private boolean served(RunningModule module, String name, String expected) {
        if (awaitAnswer(module, name, expected)) {
            return true;
        }
        if (module.target().module().knownStale() == null) {
            throw stale(module, expected);
        }
        return false;
    }

    private static IllegalStateException stale(RunningModule module, String expected) {
        return new IllegalStateException("Module " + module.target().id() + " did not answer " + expected + " within " + GIVE_UP.toSeconds()
                + " s of the change in Redis: its local copy is stale");
    }

    /** The key a module of {@code layout} reads the color {@code name} from: one string per color, as every near cache keeps them. */
    static String key(Layout layout, String name) {
        return switch (layout) {
            case JSON_STRINGS -> ColorKeys.jsonKey(name);
            case CACHE_STRINGS -> ColorKeys.cacheKey(name);
            default -> throw new IllegalArgumentException("No near cache is measured on the layout " + layout + ": one string key per color only");
        };
    }

    /** The same color with its blue channel one step off: still a consistent color under its own name. */
    static Color aShadeAway(Color color) {
        int blue = color.blue() ^ 1;
        return new Color(color.name(), "#%02x%02x%02x".formatted(color.red(), color.green(), blue), color.red(), color.green(), blue, color.padding());
    }

    private boolean awaitAnswer(RunningModule module, String name, String expected) {
        HttpRequest request = HttpRequest.newBuilder(module.baseUri().resolve("/colors/" + name)).timeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + GIVE_UP.toNanos();
        while (true) {
            try {
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().equals(expected)) {
                    return true;
                }
            }
            catch (IOException ex) {
                // asked again below, until the deadline
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", ex);
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
        }
    }

    private static double round(double millis) {
        return Math.round(millis * 100) / 100.0;
    }
}
