package dev.colorbench.benchmark.results;

import java.util.HashMap;
import java.util.Map;

import dev.colorbench.benchmark.Json;
import dev.colorbench.benchmark.plan.ServerMetric;
import tools.jackson.databind.JsonNode;

/**
 * What a module measured of itself during one run, as the difference of its meters read right
 * after and right before the run; each figure {@code null} where a reading is missing or unusable.
 *
 * @param requests {@code GET /colors} the module served
 * @param meanMicros their mean time in the module, from the request entering it to the response written
 * @param allocatedBytes bytes its JVM allocated
 * @param gcPauses garbage-collection pauses
 * @param gcPauseMillis their total time
 * @param moduleCpuSeconds CPU time the module's JVM used, counted from outside it
 * @param storeCpuSeconds CPU time the store it reads used (0 for none)
 * @param jmeterCpuSeconds CPU time JMeter used
 * @param latency the module's own histogram of the run's requests, in microseconds
 * @param storeInBytes bytes Redis read from its clients (summed over a cluster's masters, the readings' own INFO
 *        commands left out); null for a row without Redis, or a server that does not count them
 * @param storeOutBytes bytes Redis wrote to its clients, the same way
 */
public record ServerFigures(Long requests, Double meanMicros, Double allocatedBytes, Long gcPauses, Double gcPauseMillis, Double moduleCpuSeconds,
        Double storeCpuSeconds, Double jmeterCpuSeconds, LatencyHistogram latency, Double storeInBytes, Double storeOutBytes) {

    /** The actuator's answer to one meter request: its status and body. */
    record Reading(String status, String body) {

        /** The meter's statistics ({@code COUNT}, {@code TOTAL_TIME}, ...), or null if it could not be read. */
        Map<String, Double> statistics(ServerMetric metric) {
            if (metric == ServerMetric.LATENCY) {
                return null;
            }
            if (metric == ServerMetric.GC_PAUSES && status.equals("404")) {
                // the pause timer is registered at the first pause: not there yet means none so far
                return Map.of("COUNT", 0.0, "TOTAL_TIME", 0.0);
            }
            if (!status.equals("200") || body.isBlank()) {
                return null;
            }
            JsonNode root = Json.MAPPER.readTree(body);
            if (root.has("baseUnit") && metric != ServerMetric.ALLOCATED && !root.path("baseUnit").asString().equals("seconds")) {
                return null;
            }
            Map<String, Double> statistics = new HashMap<>();
            root.path("measurements").forEach(measurement -> statistics.put(measurement.path("statistic").asString(),
                    measurement.path("value").asDouble()));
            return statistics;
        }
    }

    static ServerFigures between(Map<ServerMetric, Reading> before, Map<ServerMetric, Reading> after) {
        Double requests = difference(before, after, ServerMetric.REQUESTS, "COUNT");
        Double seconds = difference(before, after, ServerMetric.REQUESTS, "TOTAL_TIME");
        Double pauses = difference(before, after, ServerMetric.GC_PAUSES, "COUNT");
        Double pauseSeconds = difference(before, after, ServerMetric.GC_PAUSES, "TOTAL_TIME");
        return new ServerFigures(requests == null ? null : Math.round(requests),
                requests == null || seconds == null || requests <= 0 ? null : seconds / requests * 1e6,
                difference(before, after, ServerMetric.ALLOCATED, "COUNT"),
                pauses == null ? null : Math.round(pauses),
                pauseSeconds == null ? null : pauseSeconds * 1000,
                difference(before, after, ServerMetric.CPU, "MODULE"), difference(before, after, ServerMetric.CPU, "STORE"),
                difference(before, after, ServerMetric.CPU, "JMETER"), latency(before.get(ServerMetric.LATENCY), after.get(ServerMetric.LATENCY)),
                difference(before, after, ServerMetric.CPU, "STORE_IN_BYTES"), difference(before, after, ServerMetric.CPU, "STORE_OUT_BYTES"));
    }

    private static LatencyHistogram latency(Reading before, Reading after) {
        if (before == null || after == null) {
            return null;
        }
        LatencyHistogram first = LatencyHistogram.parse(before.status(), before.body());
        LatencyHistogram last = LatencyHistogram.parse(after.status(), after.body());
        return first == null || last == null ? null : last.since(first);
    }

    private static Double difference(Map<ServerMetric, Reading> before, Map<ServerMetric, Reading> after, ServerMetric metric,
            String statistic) {
        Reading first = before.get(metric);
        Reading last = after.get(metric);
        if (first == null || last == null) {
            return null;
        }
        Map<String, Double> from = first.statistics(metric);
        Map<String, Double> to = last.statistics(metric);
        if (from == null || to == null || !from.containsKey(statistic) || !to.containsKey(statistic)) {
            return null;
        }
        return to.get(statistic) - from.get(statistic);
    }

    /** A count of the run (bytes, say) per request of {@code requests} (JMeter's count of the run), or null when either is unknown. */
    public static Double perRequest(Double bytes, long requests) {
        return bytes == null || requests <= 0 ? null : bytes / requests;
    }

    /** Allocation per request served, or null if either is unknown. */
    public Double allocatedBytesPerRequest() {
        return allocatedBytes == null || requests == null || requests <= 0 ? null : allocatedBytes / requests;
    }
}
