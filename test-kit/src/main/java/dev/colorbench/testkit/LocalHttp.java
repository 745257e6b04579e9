package dev.colorbench.testkit;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests to the module under test on its local port, for every contract in the kit. A request
 * that takes longer than {@link #NO_HANG} has hung, and fails the test instead of the build.
 */
public final class LocalHttp {

    static final Duration NO_HANG = Duration.ofSeconds(10);

    /** HTTP/1.1 with keep-alive, as the benchmark's JMeter speaks it. */
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    private LocalHttp() {
    }

    /**
     * For a module that may answer from a local copy until it notices that its store went away: asks
     * {@code path} with {@code get} until the answer is not a 200, for at most {@code within}; every 200
     * before that must be {@code palette}. Returns the last answer, for the caller to check it is a 503.
     */
    public static HttpResponse<String> untilNoLongerFromTheCopy(Function<String, HttpResponse<String>> get, String path, Duration within,
            String palette) {
        long deadline = System.nanoTime() + within.toNanos();
        HttpResponse<String> response = get.apply(path);
        while (response.statusCode() == 200 && System.nanoTime() < deadline) {
            assertThat(response.body()).as("%s from the local copy before the outage is noticed", path).isEqualTo(palette);
            try {
                Thread.sleep(10);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(ex);
            }
            response = get.apply(path);
        }
        return response;
    }

    public static HttpResponse<String> get(int port, String pathAndQuery) {
        return send(port, "GET", pathAndQuery, null);
    }

    /** @param accept the Accept header, or null to send none */
    public static HttpResponse<String> send(int port, String method, String pathAndQuery, String accept) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://localhost:" + port + pathAndQuery))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .timeout(NO_HANG);
        if (accept != null) {
            builder.header("Accept", accept);
        }
        try {
            return CLIENT.send(builder.build(), HttpResponse.BodyHandlers.ofString());
        }
        catch (IOException ex) {
            throw new AssertionError(method + " " + pathAndQuery + " did not answer within " + NO_HANG, ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new AssertionError(ex);
        }
    }
}
