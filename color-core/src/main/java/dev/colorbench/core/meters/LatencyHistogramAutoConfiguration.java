package dev.colorbench.core.meters;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * The module's own histogram of {@code GET /colors}, with microsecond buckets, at the actuator endpoint {@code latency}
 * (exposed only where asked for, as the benchmark does): for each bucket's upper bound, how many requests so far took at
 * most that long, from the request entering the module to its response written (Micrometer's
 * {@code http.server.requests}, every status). The counts only grow, so the difference of two readings is the
 * histogram of exactly the requests in between, whose percentiles are then known to the width of a bucket: 25 µs up
 * to 1 ms, 100 µs to 5 ms, 500 µs to 20 ms, coarser beyond. JMeter records whole milliseconds.
 */
@AutoConfiguration
@ConditionalOnClass({ MeterRegistry.class, Endpoint.class })
public class LatencyHistogramAutoConfiguration {

    static final String METER = "http.server.requests";

    /** The buckets' upper bounds. */
    static final List<Duration> BOUNDARIES = boundaries();

    /**
     * Buckets for {@code http.server.requests}, kept for the life of the process: Micrometer's histograms otherwise
     * rotate their counts every few minutes, and two readings would no longer differ by what happened in between.
     */
    @Bean
    MeterFilter latencyBuckets() {
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(io.micrometer.core.instrument.Meter.Id id, DistributionStatisticConfig config) {
                if (!id.getName().equals(METER)) {
                    return config;
                }
                return DistributionStatisticConfig.builder()
                        .serviceLevelObjectives(BOUNDARIES.stream().mapToDouble(Duration::toNanos).toArray())
                        .expiry(Duration.ofDays(3650))
                        .bufferLength(1)
                        .build()
                        .merge(config);
            }
        };
    }

    /** Where no meter registry is configured (a slice test, a context without metrics) the endpoint reports nothing. */
    @Bean
    LatencyEndpoint latencyEndpoint(ObjectProvider<MeterRegistry> registry) {
        return new LatencyEndpoint(registry::getIfAvailable);
    }

    /** {@code GET /actuator/latency}: {@code {"count": n, "buckets": {"<upper bound in µs>": <requests at most that long>, ...}}}. */
    @Endpoint(id = "latency")
    public static class LatencyEndpoint {

        private final Supplier<MeterRegistry> registry;

        LatencyEndpoint(Supplier<MeterRegistry> registry) {
            this.registry = registry;
        }

        @ReadOperation
        public Map<String, Object> histogram() {
            TreeMap<Double, Double> cumulative = new TreeMap<>();
            long count = 0;
            MeterRegistry meters = registry.get();
            List<Timer> timers = meters == null ? List.of() : List.copyOf(meters.find(METER).tag("uri", "/colors").tag("method", "GET").timers());
            for (Timer timer : timers) {
                var snapshot = timer.takeSnapshot();
                count += snapshot.count();
                for (CountAtBucket bucket : snapshot.histogramCounts()) {
                    cumulative.merge(bucket.bucket(TimeUnit.MICROSECONDS), bucket.count(), Double::sum);
                }
            }
            Map<String, Double> buckets = new LinkedHashMap<>();
            cumulative.forEach((micros, requests) -> buckets.put(String.valueOf(micros), requests));
            return Map.of("count", count, "buckets", buckets);
        }
    }

    private static List<Duration> boundaries() {
        List<Duration> boundaries = new java.util.ArrayList<>();
        for (long micros = 25; micros <= 1_000; micros += 25) {
            boundaries.add(Duration.ofNanos(micros * 1_000));
        }
        for (long micros = 1_100; micros <= 5_000; micros += 100) {
            boundaries.add(Duration.ofNanos(micros * 1_000));
        }
        for (long micros = 5_500; micros <= 20_000; micros += 500) {
            boundaries.add(Duration.ofNanos(micros * 1_000));
        }
        for (long millis : new long[] { 25, 30, 40, 50, 60, 80, 100, 150, 200, 300, 500, 750, 1_000, 2_000, 5_000, 10_000 }) {
            boundaries.add(Duration.ofMillis(millis));
        }
        return List.copyOf(boundaries);
    }
}
