package dev.colorbench.benchmark.run;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.colorbench.benchmark.Console;
import dev.colorbench.benchmark.Format;
import dev.colorbench.core.Color;
import dev.colorbench.core.ColorJson;
import dev.colorbench.core.ColorKeys;
import dev.colorbench.core.Palette;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

/**
 * How stale a row that answers from a local copy gets: another writer changes one color in Redis
 * (a plain {@code SET colors::v3::<name>} on a connection of the run's own, a consistent color a
 * shade away), and the run asks the module for that color until it answers the new value. The
 * delay from the SET's reply to that answer (its HTTP round trip included) is the staleness; it is
 * measured over a few dozen writes before any load, each color made the module's own first, and
 * the palette is written back afterwards (and waited for) so the load sees the canonical answer.
 */
public final class Staleness {

    /** Writes measured per row. */
    static final int WRITES = 40;

    /** The longest a module may take to serve a change before the run calls it stale for good. */
    private static final Duration GIVE_UP = Duration.ofSeconds(5);

    /** A row's staleness over its writes, in milliseconds. */
    public record Result(String target, int writes, double medianMillis, double p90Millis, double maxMillis) {
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
                Console.info("staleness of %s over %d writes: median %s ms, p90 %s ms, max %s ms".formatted(result.target(), result.writes(),
                        Format.number(round(result.medianMillis())), Format.number(round(result.p90Millis())), Format.number(round(result.maxMillis()))));
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
        double[] millis = new double[WRITES];
        for (int i = 0; i < WRITES; i++) {
            Color color = palette.get((i * 37) % palette.size());
            String canonical = ColorJson.of(color);
            awaitAnswer(module, color.name(), canonical);
            String changed = ColorJson.of(aShadeAway(color));
            redis.sync().set(ColorKeys.jsonKey(color.name()), changed);
            long written = System.nanoTime();
            awaitAnswer(module, color.name(), changed);
            millis[i] = (System.nanoTime() - written) / 1e6;
            redis.sync().set(ColorKeys.jsonKey(color.name()), canonical);
            awaitAnswer(module, color.name(), canonical);
        }
        Arrays.sort(millis);
        return new Result(module.target().id(), WRITES, millis[WRITES / 2], millis[(int) Math.ceil(WRITES * 0.9) - 1], millis[WRITES - 1]);
    }

    /** The same color with its blue channel one step off: still a consistent color under its own name. */
    static Color aShadeAway(Color color) {
        int blue = color.blue() ^ 1;
        return new Color(color.name(), "#%02x%02x%02x".formatted(color.red(), color.green(), blue), color.red(), color.green(), blue);
    }

    private void awaitAnswer(RunningModule module, String name, String expected) {
        HttpRequest request = HttpRequest.newBuilder(module.baseUri().resolve("/colors/" + name)).timeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + GIVE_UP.toNanos();
        while (true) {
            try {
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().equals(expected)) {
                    return;
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
                throw new IllegalStateException("Module " + module.target().id() + " did not answer " + expected + " within " + GIVE_UP
                        + " of the change in Redis: its local copy is stale");
            }
        }
    }

    private static double round(double millis) {
        return Math.round(millis * 100) / 100.0;
    }
}
