package dev.colorbench.cacheableasync;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.testkit.RedisCommandStats;
import dev.colorbench.testkit.statistics.Statistics;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How many round trips (socket reads Redis served) the 148 lookups of one {@code GET /colors} took,
 * over many requests made one after another: how the lookups share reads depends on how threads
 * are scheduled, so one request says little and the distribution is what the module documents.
 */
record RoundTripSample(List<Long> sorted) {

    /** Requests {@code GET /colors} {@code requests} times, each checked for the palette and exactly 148 GETs. */
    static RoundTripSample measure(String redisUrl, int requests, Supplier<HttpResponse<String>> getColors) {
        List<Long> roundTrips = new ArrayList<>(requests);
        try (RedisCommandStats stats = RedisCommandStats.connect(redisUrl)) {
            for (int i = 0; i < requests; i++) {
                RedisCommandStats.Usage usage = stats.usage(() -> assertThat(getColors.get().body()).isEqualTo(ColorJson.palette()));
                assertThat(usage.commands()).isEqualTo(Map.of("get", 148L));
                roundTrips.add(usage.roundTrips());
            }
        }
        return new RoundTripSample(roundTrips.stream().sorted().toList());
    }

    long min() {
        return sorted.get(0);
    }

    double median() {
        return Statistics.median(sorted.stream().mapToDouble(Long::doubleValue).toArray());
    }

    long max() {
        return sorted.get(sorted.size() - 1);
    }

    @Override
    public String toString() {
        return "round trips of 148 lookups over %d requests: min %d, median %s, max %d".formatted(sorted.size(), min(), median(), max());
    }
}
