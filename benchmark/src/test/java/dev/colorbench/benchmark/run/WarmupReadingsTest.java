package dev.colorbench.benchmark.run;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.modules.Layout;
import dev.colorbench.benchmark.modules.PatternModule;
import dev.colorbench.benchmark.modules.Role;
import dev.colorbench.benchmark.modules.Store;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.plan.ServerMetric;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The warm-up asks a module for its meters every window, as a measured run asks before and after its load: a module first
 * asked in a measured run compiles those paths in that run, and its first round climbs (docs/measuring.md#warm-up-and-steady-state).
 * The module here is a stand-in on a real socket that answers every path and counts what it was asked.
 */
class WarmupReadingsTest {

    private HttpServer server;

    private Process process;

    private final java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(4);

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
        threads.shutdownNow();
        if (process != null) {
            process.destroy();
        }
    }

    @Test
    void everyMeterAMeasuredRunReadsIsReadInEveryWarmupWindowAsJMeterReadsIt() throws Exception {
        Map<String, AtomicInteger> asked = new ConcurrentHashMap<>();
        Map<String, String> readAs = new ConcurrentHashMap<>();
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getRawPath() + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery());
            asked.computeIfAbsent(path, key -> new AtomicInteger()).incrementAndGet();
            if (java.util.Arrays.stream(ServerMetric.values()).anyMatch(metric -> metric.path("stand-in").equals(path))) {
                readAs.merge(exchange.getProtocol() + ", Connection: " + exchange.getRequestHeaders().getFirst("Connection"), path, (a, b) -> a);
            }
            answer(exchange, path.startsWith("/actuator/metrics/") ? "{\"measurements\":[{\"statistic\":\"COUNT\",\"value\":0}]}" : "[]");
        });
        server.setExecutor(threads);
        server.start();
        // a process that is no JVM: its JIT time comes from the stand-in's jvm.compilation.time, 0, so the JIT reads as quiet
        process = new ProcessBuilder("sleep", "60").start();
        PatternModule pattern = new PatternModule("stand-in", "a pattern", server.getAddress().getPort(), "MVC", Role.REDIS_PATTERN, Store.REDIS, null,
                false, Layout.JSON_STRINGS, null, null, List.of(), List.of());
        RunningModule module = new RunningModule(new Target("stand-in", pattern, Map.of()), server.getAddress().getPort(), process, Path.of("stand-in.log"));
        Properties quick = new Properties();
        quick.setProperty("benchmark.quick", "true");
        quick.setProperty("benchmark.threads", "2");
        // the light phase too: two windows at least there, and two at the measured load
        quick.setProperty("benchmark.warmupTogether", "2");
        BenchmarkSettings settings = BenchmarkSettings.from(quick, Map.of());

        List<SteadyState.Warmup> warmups = new SteadyState(settings).warm(List.of(module));

        assertThat(warmups).hasSize(1);
        List<Integer> readings = java.util.Arrays.stream(ServerMetric.values()).filter(metric -> metric != ServerMetric.CPU)
                .map(metric -> asked.getOrDefault(metric.path("stand-in"), new AtomicInteger()).get()).toList();
        assertThat(readings).as("each meter read once a window, in both phases").hasSize(4).allMatch(count -> count.equals(readings.get(0)))
                .allMatch(count -> count >= 2 * settings.warmupWindows());
        assertThat(asked.get("/colors").get()).isGreaterThan(readings.get(0));
        assertThat(readAs).as("as JMeter reads: HTTP/1.1, a connection closed after each reading").containsOnlyKeys("HTTP/1.1, Connection: close");
    }

    private static void answer(HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }
}
