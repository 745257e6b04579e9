package dev.colorbench.testkit.copy;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.colorbench.testkit.LocalHttp;

import static org.assertj.core.api.Assertions.assertThat;

/** Requests to the copy on its local port, as the kit's {@link LocalHttp} sends them, and what the copies' answers must be. */
final class CopyHttp {

    /** The most a request may take to fail while Redis is away or stalled. */
    static final Duration FAST_FAILURE = Duration.ofSeconds(1);

    private CopyHttp() {
    }

    static HttpResponse<String> get(int port, String path) {
        return LocalHttp.get(port, path);
    }

    /** The 148 colors as {@code GET /colors} must answer them, byte for byte. */
    static String palette() {
        try (var in = CopyHttp.class.getResourceAsStream("palette.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** A 503 problem, within {@link #FAST_FAILURE}, that names no exception. */
    static void assertFast503(int port, String path) {
        long started = System.nanoTime();
        HttpResponse<String> response = get(port, path);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(took).as("GET %s took %s", path, took).isLessThanOrEqualTo(FAST_FAILURE);
        assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(503);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.body()).contains("\"status\":503").doesNotContain("Exception");
    }
}
