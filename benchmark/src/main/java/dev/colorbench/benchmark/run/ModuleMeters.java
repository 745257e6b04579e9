package dev.colorbench.benchmark.run;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.colorbench.benchmark.Json;
import dev.colorbench.benchmark.plan.ServerMetric;

/** Reads a running module's own meters from its actuator: how the run sees that load has reached a module, and whether its JIT is done. */
public final class ModuleMeters {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(1)).build();

    private ModuleMeters() {
    }

    /**
     * {@code GET /colors} requests the module has served so far (0 before the first).
     *
     * @throws IllegalStateException where the meter cannot be read: an unread meter is never taken for 0
     */
    public static long requestsServed(RunningModule module) {
        return Math.round(read(module, "http.server.requests?tag=uri:/colors&tag=method:GET", "COUNT"));
    }

    /**
     * Milliseconds the module's JIT compilers have spent compiling so far, from its JVM's performance counters, read from
     * outside ({@link JitTime}). A row without an actuator is so judged by the same timer as its module. Else from
     * Micrometer's {@code jvm.compilation.time}.
     *
     * @throws IllegalStateException where neither can be read: a JIT whose time is unknown is never taken for a quiet one
     */
    public static double compilationMillis(RunningModule module) {
        Double outside = JitTime.millis(module.process().pid());
        return outside != null ? outside : read(module, "jvm.compilation.time", "COUNT");
    }

    /**
     * Reads from the module every meter a measured run reads around its load ({@link ServerMetric}, all but the run's own CPU
     * readings), as JMeter does (the plan's reading.jmx): each on a connection of its own, HTTP/1.1, closed after the answer.
     * The answers are dropped. The warm-up does this every window: a module first asked for its meters in a measured run
     * takes other paths through its web stack than the warm-up made hot, and its JIT compiles them again in that run
     * (docs/measuring.md#warm-up-and-steady-state).
     */
    public static void readAsARunDoes(RunningModule module) {
        for (ServerMetric metric : ServerMetric.inReadingOrder(true)) {
            if (metric != ServerMetric.CPU) {
                readOnce(module.port(), metric.path(module.target().id()));
            }
        }
    }

    /** One {@code GET path} on a new connection that asks to be closed, its answer read to the end and dropped. */
    static void readOnce(int port, String path) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(dev.colorbench.benchmark.BenchmarkSettings.HOST, port), 1_000);
            socket.setSoTimeout(2_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: " + dev.colorbench.benchmark.BenchmarkSettings.HOST + ":" + port
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            socket.getInputStream().transferTo(OutputStream.nullOutputStream());
        }
        catch (IOException ex) {
            // a reading that failed in the warm-up is in no figure; the measured run's own readings say if it fails there
        }
    }

    private static double read(RunningModule module, String meter, String statistic) {
        HttpRequest request = HttpRequest.newBuilder(module.baseUri().resolve("/actuator/metrics/" + meter)).timeout(Duration.ofSeconds(2)).build();
        String what = module.target().id() + "'s meter " + meter;
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 404 && statistic.equals("COUNT") && meter.startsWith("http.server.requests")) {
                // Micrometer registers the timer at the first request: none served yet
                return 0;
            }
            if (response.statusCode() != 200) {
                throw new IllegalStateException(what + " cannot be read: HTTP " + response.statusCode());
            }
            for (var measurement : Json.MAPPER.readTree(response.body()).path("measurements")) {
                if (measurement.path("statistic").asString().equals(statistic)) {
                    return measurement.path("value").asDouble();
                }
            }
            throw new IllegalStateException(what + " has no " + statistic);
        }
        catch (IOException ex) {
            throw new IllegalStateException(what + " cannot be read: " + ex, ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + " was not read: interrupted", ex);
        }
    }
}
