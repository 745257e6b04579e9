package dev.colorbench.core.meters;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Map;

import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.transport.RequestReplyReceiverContext;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * The module's own latency of {@code GET /colors}, every request at microsecond resolution, at the actuator endpoint
 * {@code latency} (exposed only where asked for, as the benchmark does). Each request is timed from the start of its
 * {@code http.server.requests} observation to its end, whatever its status. It is recorded in an HdrHistogram with four
 * significant digits: exact to the microsecond up to 32 ms, so that no percentile rests on interpolation within a bucket.
 * The counts only grow, so the difference of two readings is the histogram of exactly the requests in between
 * (docs/measuring.md#latency-at-a-share-of-throughput). JMeter records whole milliseconds.
 */
@AutoConfiguration
@ConditionalOnClass({ ObservationHandler.class, Endpoint.class, Histogram.class })
public class LatencyHistogramAutoConfiguration {

    static final String OBSERVATION = "http.server.requests";

    /** Four digits: a histogram's unit-wide buckets reach 2 x 10^4 and more, 32,768 µs. */
    static final int SIGNIFICANT_DIGITS = 4;

    @Bean
    LatencyRecorder colorsLatencyRecorder() {
        return new LatencyRecorder();
    }

    @Bean
    LatencyEndpoint latencyEndpoint(LatencyRecorder recorder) {
        return new LatencyEndpoint(recorder);
    }

    /** Times each {@code GET /colors} observation; Spring Boot registers every {@link ObservationHandler} bean with the registry. */
    static final class LatencyRecorder implements ObservationHandler<Observation.Context> {

        /** Wait-free for the threads that record, so that recording never queues a request behind another. */
        private final Histogram histogram = new ConcurrentHistogram(SIGNIFICANT_DIGITS);

        /**
         * Every context of a request received: Micrometer picks an observation's handlers before its convention names
         * it, so the name is checked when the observation stops. A client's observations (Lettuce's commands) are left alone.
         */
        @Override
        public boolean supportsContext(Observation.Context context) {
            return context instanceof RequestReplyReceiverContext<?, ?>;
        }

        @Override
        public void onStart(Observation.Context context) {
            context.put(LatencyRecorder.class, System.nanoTime());
        }

        /** The convention's name and key values (the URI's pattern, the method) are on the context by the time a handler is told of the stop. */
        @Override
        public void onStop(Observation.Context context) {
            Long started = context.get(LatencyRecorder.class);
            if (started == null || !OBSERVATION.equals(context.getName())) {
                return;
            }
            KeyValue uri = context.getLowCardinalityKeyValue("uri");
            KeyValue method = context.getLowCardinalityKeyValue("method");
            if (uri != null && uri.getValue().equals("/colors") && method != null && method.getValue().equals("GET")) {
                histogram.recordValue(Math.max(0, (System.nanoTime() - started) / 1_000));
            }
        }

        /** A copy of every request so far, safe against the threads still recording. */
        Histogram snapshot() {
            return histogram.copy();
        }
    }

    /**
     * {@code GET /actuator/latency}: {@code {"count": n, "histogram": "<base64>"}}, the histogram of every {@code GET /colors}
     * so far in µs, as HdrHistogram's compressed encoding ({@code Histogram.decodeFromCompressedByteBuffer}).
     */
    @Endpoint(id = "latency")
    public static class LatencyEndpoint {

        private final LatencyRecorder recorder;

        LatencyEndpoint(LatencyRecorder recorder) {
            this.recorder = recorder;
        }

        @ReadOperation
        public Map<String, Object> histogram() {
            Histogram histogram = recorder.snapshot();
            ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
            int length = histogram.encodeIntoCompressedByteBuffer(buffer);
            byte[] encoded = new byte[length];
            buffer.rewind();
            buffer.get(encoded);
            return Map.of("count", histogram.getTotalCount(), "histogram", Base64.getEncoder().encodeToString(encoded));
        }
    }
}
