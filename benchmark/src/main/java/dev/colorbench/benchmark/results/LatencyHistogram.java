package dev.colorbench.benchmark.results;

import java.util.Map;
import java.util.TreeMap;

import dev.colorbench.benchmark.Json;
import tools.jackson.databind.JsonNode;

/**
 * The module's own histogram of the requests of one run: for each bucket's upper bound in microseconds, how many took at
 * most that long (color-core's {@code latency} endpoint, read before and after the run, the difference taken). Its
 * percentiles are interpolated within the bucket they fall in: known to 25 µs under 1 ms, to 100 µs under 5 ms.
 *
 * @param atMost requests that took at most each upper bound, cumulative
 */
public record LatencyHistogram(TreeMap<Double, Double> atMost) {

    /** The counts in an answer of the endpoint, or null if it is not one. */
    static LatencyHistogram parse(String status, String body) {
        if (!status.equals("200") || body.isBlank()) {
            return null;
        }
        JsonNode buckets = Json.MAPPER.readTree(body).path("buckets");
        if (!buckets.isObject()) {
            return null;
        }
        TreeMap<Double, Double> atMost = new TreeMap<>();
        for (Map.Entry<String, JsonNode> bucket : buckets.properties()) {
            atMost.put(Double.parseDouble(bucket.getKey()), bucket.getValue().asDouble());
        }
        return new LatencyHistogram(atMost);
    }

    /** What was counted after {@code before} was read: the requests of the run between the two readings. */
    LatencyHistogram since(LatencyHistogram before) {
        TreeMap<Double, Double> difference = new TreeMap<>();
        atMost.forEach((bound, count) -> difference.put(bound, count - before.atMost.getOrDefault(bound, 0.0)));
        return new LatencyHistogram(difference);
    }

    /** Both runs' requests together. */
    public LatencyHistogram plus(LatencyHistogram other) {
        TreeMap<Double, Double> sum = new TreeMap<>(atMost);
        other.atMost.forEach((bound, count) -> sum.merge(bound, count, Double::sum));
        return new LatencyHistogram(sum);
    }

    /** Requests counted (those up to the last bucket's bound). */
    public double requests() {
        return atMost.isEmpty() ? 0 : atMost.lastEntry().getValue();
    }

    /**
     * The {@code percent} percentile in microseconds, linear within its bucket; null without requests, or when it lies
     * beyond the last bucket.
     */
    public Double percentile(double percent) {
        double total = requests();
        if (total <= 0) {
            return null;
        }
        double rank = percent / 100 * total;
        double lowerBound = 0;
        double below = 0;
        for (Map.Entry<Double, Double> bucket : atMost.entrySet()) {
            if (bucket.getValue() >= rank) {
                double inBucket = bucket.getValue() - below;
                double fraction = inBucket <= 0 ? 1 : (rank - below) / inBucket;
                return lowerBound + fraction * (bucket.getKey() - lowerBound);
            }
            lowerBound = bucket.getKey();
            below = bucket.getValue();
        }
        return null;
    }
}
