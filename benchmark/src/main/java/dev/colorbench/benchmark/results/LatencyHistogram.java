package dev.colorbench.benchmark.results;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;

import dev.colorbench.benchmark.Json;
import org.HdrHistogram.Histogram;
import tools.jackson.databind.JsonNode;

/**
 * The module's own latency of the requests of one run, each at microsecond resolution (color-core's {@code latency}
 * endpoint, an HdrHistogram read before and after the run, the difference taken). Its percentiles are values a request
 * took, exact to the microsecond up to 32 ms, not interpolated within a bucket
 * (docs/measuring.md#latency-at-a-share-of-throughput).
 *
 * @param histogram every request of the run, in µs
 */
public record LatencyHistogram(Histogram histogram) {

    /** The histogram in an answer of the endpoint, or null if it is not one. */
    static LatencyHistogram parse(String status, String body) {
        if (!status.equals("200") || body.isBlank()) {
            return null;
        }
        JsonNode encoded = Json.MAPPER.readTree(body).path("histogram");
        if (!encoded.isString()) {
            return null;
        }
        try {
            byte[] bytes = Base64.getDecoder().decode(encoded.asString());
            return new LatencyHistogram(Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0));
        }
        catch (DataFormatException | RuntimeException ex) {
            // not an encoding this reads (another version's endpoint, a reading cut short): no histogram, not a failed run
            return null;
        }
    }

    /**
     * What was recorded after {@code before} was read: the requests of the run between the two readings. Null where the
     * counts went back (two readings of different JVMs).
     */
    LatencyHistogram since(LatencyHistogram before) {
        Histogram difference = histogram.copy();
        try {
            difference.subtract(before.histogram);
        }
        catch (IllegalArgumentException ex) {
            return null;
        }
        return new LatencyHistogram(difference);
    }

    /** Both runs' requests together. */
    public LatencyHistogram plus(LatencyHistogram other) {
        Histogram sum = histogram.copy();
        sum.add(other.histogram);
        return new LatencyHistogram(sum);
    }

    /** Requests recorded. */
    public double requests() {
        return histogram.getTotalCount();
    }

    /**
     * The {@code percent} percentile in microseconds: the least value that share of the requests took at most. It is the
     * lowest value of its HdrHistogram bucket, one microsecond wide up to 32 ms, so never above what a request took. Null
     * without requests.
     */
    public Double percentile(double percent) {
        if (histogram.getTotalCount() == 0) {
            return null;
        }
        return (double) histogram.lowestEquivalentValue(histogram.getValueAtPercentile(percent));
    }
}
