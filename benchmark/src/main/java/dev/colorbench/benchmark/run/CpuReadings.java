package dev.colorbench.benchmark.run;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.colorbench.benchmark.Json;
import dev.colorbench.benchmark.modules.Store;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;

/**
 * What the processes a request goes through spent on the CPU so far, counted from outside them and served to the plan
 * over HTTP, in the shape of an actuator meter, so that the plan reads it right before and right after each measured
 * run like the modules' own meters ({@code /cpu/<row>}): the row's JVM (its process's user and system time, as the
 * kernel counts it), Redis ({@code used_cpu_user + used_cpu_sys} of {@code INFO cpu}, summed over a cluster's masters
 * for a row on a cluster), the embedded PostgreSQL for a database row (its postmaster and every process under it; missing
 * for one in {@code DATABASE_URL}), none for the ceiling, and JMeter's JVM. The differences, divided by the requests of the run, are what one request
 * costs each of them: a figure that does not depend on how many cores the machine has or who else was using them.
 * The same server takes the plan's word that a row's profiled load is about to start ({@code /profile/<row>}), so that a
 * profile can hold that row's load only ({@link Profiler}).
 */
final class CpuReadings implements AutoCloseable {

    private final HttpServer server;

    private final Map<String, RunningModule> modules = new LinkedHashMap<>();

    private final DataStores stores;

    private final Map<String, RedisClient> redisClients = new LinkedHashMap<>();

    private final Map<String, StatefulRedisConnection<String, String>> redis = new LinkedHashMap<>();

    private volatile ProcessHandle jmeter;

    private volatile Consumer<String> profiledLoadStarting;

    private CpuReadings(HttpServer server, List<RunningModule> modules, DataStores stores) {
        this.server = server;
        this.stores = stores;
        modules.forEach(module -> this.modules.put(module.target().id(), module));
    }

    /** Serves the readings of {@code modules} on a free loopback port until closed. */
    static CpuReadings serve(List<RunningModule> modules, DataStores stores) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            CpuReadings readings = new CpuReadings(server, modules, stores);
            server.createContext("/cpu/", readings::answer);
            server.createContext("/profile/", readings::profiledLoadStarting);
            server.start();
            return readings;
        }
        catch (IOException ex) {
            throw new IllegalStateException("Cannot serve the CPU readings", ex);
        }
    }

    int port() {
        return server.getAddress().getPort();
    }

    /** The JMeter process that runs the plan now, whose CPU the readings include. */
    void jmeterStarted(ProcessHandle process) {
        jmeter = process;
    }

    /** Who to tell, by the row's id, that the plan is about to start a row's profiled load; null: nobody (the plan's call fails). */
    void onProfiledLoad(Consumer<String> starting) {
        profiledLoadStarting = starting;
    }

    /** Answers at once: the row's load starts when the plan has the answer, and its profile's window is timed from here. */
    private void profiledLoadStarting(HttpExchange exchange) throws IOException {
        String id = exchange.getRequestURI().getPath().substring("/profile/".length());
        Consumer<String> starting = profiledLoadStarting;
        boolean known = starting != null && modules.containsKey(id);
        if (known) {
            starting.accept(id);
        }
        exchange.sendResponseHeaders(known ? 204 : 404, -1);
        exchange.close();
    }

    private void answer(HttpExchange exchange) throws IOException {
        String id = exchange.getRequestURI().getPath().substring("/cpu/".length());
        RunningModule module = modules.get(id);
        byte[] body;
        int status;
        if (module == null) {
            status = 404;
            body = ("No row " + id).getBytes(StandardCharsets.UTF_8);
        }
        else {
            status = 200;
            body = Json.MAPPER.writeValueAsBytes(Map.of("name", "colorbench.cpu", "baseUnit", "seconds", "measurements", measurements(module)));
        }
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private synchronized List<Map<String, Object>> measurements(RunningModule module) {
        List<Map<String, Object>> measurements = new ArrayList<>();
        seconds(module.process().toHandle()).ifPresent(seconds -> measurements.add(measurement("MODULE", seconds)));
        storeSeconds(module).ifPresent(seconds -> measurements.add(measurement("STORE", seconds)));
        ProcessHandle load = jmeter;
        if (load != null) {
            seconds(load).ifPresent(seconds -> measurements.add(measurement("JMETER", seconds)));
        }
        return measurements;
    }

    /** The CPU of the store the row reads: Redis, the embedded PostgreSQL, or none (0) for the ceiling; empty where it cannot be read. */
    private Optional<Double> storeSeconds(RunningModule module) {
        Store store = module.target().module().store();
        if (store == Store.NONE) {
            return Optional.of(0.0);
        }
        if (store == Store.POSTGRESQL) {
            List<ProcessHandle> database = stores.databaseProcesses();
            return database.isEmpty() ? Optional.empty()
                    : Optional.of(database.stream().map(CpuReadings::seconds).flatMap(Optional::stream).mapToDouble(Double::doubleValue).sum());
        }
        double seconds = 0;
        for (String url : stores.redisUrlsOf(module.target())) {
            StatefulRedisConnection<String, String> connection = redis.computeIfAbsent(url, key -> {
                RedisURI uri = RedisURI.create(key);
                uri.setTimeout(Duration.ofSeconds(2));
                RedisClient client = RedisClient.create(uri);
                redisClients.put(key, client);
                return client.connect();
            });
            Map<String, Double> cpu = new LinkedHashMap<>();
            for (String line : connection.sync().info("cpu").split("\r?\n")) {
                int colon = line.indexOf(':');
                if (colon > 0) {
                    try {
                        cpu.put(line.substring(0, colon), Double.parseDouble(line.substring(colon + 1).strip()));
                    }
                    catch (NumberFormatException ex) {
                        // not a figure
                    }
                }
            }
            if (!cpu.containsKey("used_cpu_user") || !cpu.containsKey("used_cpu_sys")) {
                return Optional.empty();
            }
            seconds += cpu.get("used_cpu_user") + cpu.get("used_cpu_sys");
        }
        return Optional.of(seconds);
    }

    private static Optional<Double> seconds(ProcessHandle process) {
        return process.info().totalCpuDuration().map(cpu -> cpu.toNanos() / 1e9);
    }

    private static Map<String, Object> measurement(String statistic, double value) {
        return Map.of("statistic", statistic, "value", value);
    }

    @Override
    public void close() {
        server.stop(0);
        redis.values().forEach(StatefulRedisConnection::close);
        redisClients.values().forEach(client -> client.shutdown(0, 2, TimeUnit.SECONDS));
    }
}
