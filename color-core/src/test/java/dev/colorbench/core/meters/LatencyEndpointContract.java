package dev.colorbench.core.meters;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The latency endpoint on a real server: every {@code GET /colors}, whatever its status, at microsecond resolution,
 * no other path or method, and counts that only grow. Each stack's test answers {@code /colors?sleep=<ms>} after that
 * long, with 503 for {@code fail}, and {@code /colors/{name}}.
 */
abstract class LatencyEndpointContract {

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @LocalServerPort
    private int port;

    @Autowired
    private LatencyHistogramAutoConfiguration.LatencyEndpoint endpoint;

    @Test
    void recordsEachGetOfColorsInMicrosecondsWhateverItsStatus() throws Exception {
        Histogram before = decode(endpoint.histogram());

        assertThat(send("GET", "/colors?sleep=3")).isEqualTo(200);
        assertThat(send("GET", "/colors?sleep=12")).isEqualTo(200);
        assertThat(send("GET", "/colors?sleep=0&fail=true")).isEqualTo(503);
        assertThat(send("GET", "/colors/red")).isEqualTo(200);
        assertThat(send("POST", "/colors")).isEqualTo(405);

        // a request is recorded when its observation stops, just after its answer went out
        await().atMost(Duration.ofSeconds(5)).until(() -> (long) endpoint.histogram().get("count") >= before.getTotalCount() + 3);
        Map<String, Object> reading = endpoint.histogram();
        Histogram requests = decode(reading);
        requests.subtract(before);
        assertThat(reading.get("count")).isEqualTo(before.getTotalCount() + 3);
        assertThat(requests.getTotalCount()).isEqualTo(3);
        // the two that slept took their 3 and 12 ms and more, recorded to the microsecond up to 32 ms, not to a bucket's bound
        assertThat(requests.getCountBetweenValues(3_000, Long.MAX_VALUE)).isGreaterThanOrEqualTo(2);
        assertThat(requests.getCountBetweenValues(12_000, Long.MAX_VALUE)).isGreaterThanOrEqualTo(1);
        assertThat(requests.sizeOfEquivalentValueRange(12_345)).isEqualTo(1);
        assertThat(requests.sizeOfEquivalentValueRange(32_000)).isEqualTo(1);
    }

    @Test
    void countsOnlyGrow() throws Exception {
        long first = (long) endpoint.histogram().get("count");
        send("GET", "/colors?sleep=0");
        await().atMost(Duration.ofSeconds(5)).until(() -> (long) endpoint.histogram().get("count") > first);
        long second = (long) endpoint.histogram().get("count");
        assertThat(decode(endpoint.histogram()).getTotalCount()).isGreaterThanOrEqualTo(second);
    }

    private int send(String method, String path) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).method(method, HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(10)).build();
        return CLIENT.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    static Histogram decode(Map<String, Object> reading) throws Exception {
        byte[] bytes = Base64.getDecoder().decode((String) reading.get("histogram"));
        return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0);
    }
}
