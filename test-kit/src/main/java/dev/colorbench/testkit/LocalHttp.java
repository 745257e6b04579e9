package dev.colorbench.testkit;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

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
