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
import dev.colorbench.benchmark.Console;
import dev.colorbench.benchmark.Json;
import dev.colorbench.benchmark.modules.Store;
import dev.colorbench.benchmark.results.FloorReading;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.ProtocolVersion;

/**
 * What the processes a request goes through spent on the CPU so far, counted from outside them and served to the plan
 * over HTTP, in the shape of an actuator meter, so that the plan reads it right before and right after each measured
 * run like the modules' own meters ({@code /cpu/<row>}): the row's JVM (its process's user and system time, as the
 * kernel counts it), Redis ({@code used_cpu_user + used_cpu_sys} of {@code INFO cpu}, summed over a cluster's masters
 * for a row on a cluster), the embedded PostgreSQL for a database row (its postmaster and every process under it; missing
 * for one in {@code DATABASE_URL}), none for the ceiling, and JMeter's JVM. The differences, divided by the requests of the run, are what one request
 * costs each of them: a figure that does not depend on how many cores the machine has or who else was using them.
 * The same server takes the plan's word that a row's profiled load is about to start ({@code /profile/<row>}), so that a
 * profile can hold that row's load only ({@link Profiler}), and measures the floor's Redis work in each round when the plan
 * asks ({@code /floor/<round>}, {@link RedisFloor}).
 *
 * <p>For a Redis row the same answer also carries the bytes Redis has read from and written to its clients so far
 * ({@code total_net_input_bytes} and {@code total_net_output_bytes} of {@code INFO stats}, summed over a cluster's masters like
 * the CPU), read at the same moment as the CPU: {@code STORE_IN_BYTES} and {@code STORE_OUT_BYTES}, absent for any other row.
 * Their difference over a run, divided by its requests, is what one request sends to Redis and gets back from it. The
 * readings' own {@code INFO} commands and replies land in those counters too; they are subtracted, not neglected: each
 * reading counts the bytes of every {@code INFO} command it sent and of every reply it got on that server (the reply's
 * payload and its RESP bulk header), and serves the counters minus what it has counted up to that moment. What is left
 * is the modules' traffic (and any other client's, on a shared server). The meter's {@code baseUnit} stays
 * {@code seconds}, which the plan's reader checks; the statistics' names say their unit.
 */
final class CpuReadings implements AutoCloseable {

    private final HttpServer server;

    private final Map<String, RunningModule> modules = new LinkedHashMap<>();

    private final DataStores stores;

    private final Map<String, RedisClient> redisClients = new LinkedHashMap<>();

    private final Map<String, StatefulRedisConnection<String, String>> redis = new LinkedHashMap<>();

    /** By Redis URL: what the readings' own INFO commands and replies put into that server's byte counters. */
    private final Map<String, OwnTraffic> ownTraffic = new LinkedHashMap<>();

    private volatile ProcessHandle jmeter;

    private volatile Consumer<String> profiledLoadStarting;

    private final RedisFloor floor;

    private CpuReadings(HttpServer server, List<RunningModule> modules, DataStores stores, RedisFloor floor) {
        this.server = server;
        this.stores = stores;
        this.floor = floor;
        modules.forEach(module -> this.modules.put(module.target().id(), module));
    }

    /** Serves the readings of {@code modules} on a free loopback port until closed, and measures {@code floor} when the plan asks. */
    static CpuReadings serve(List<RunningModule> modules, DataStores stores, RedisFloor floor) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            CpuReadings readings = new CpuReadings(server, modules, stores, floor);
            server.createContext("/cpu/", readings::answer);
            server.createContext("/profile/", readings::profiledLoadStarting);
            server.createContext("/floor/", readings::measureFloor);
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

    /**
     * Measures the floor's Redis work of the round the path names ({@code /floor/<round>}) while the plan's call waits, and
     * answers it; a failure answers 500 with its reason, and that round has no floor. Redis's CPU is read as a row's store is:
     * {@code INFO cpu} of the run's Redis, on the readings' own connection (docs/measuring.md#the-floor).
     */
    private void measureFloor(HttpExchange exchange) throws IOException {
        String round = exchange.getRequestURI().getPath().substring("/floor/".length());
        int status;
        byte[] body;
        try {
            FloorReading reading = floor.measure(Integer.parseInt(round), () -> redisCpuSeconds(stores.redisUrl()));
            status = 200;
            body = Json.MAPPER.writeValueAsBytes(reading);
            Console.info("floor of round %s: Redis CPU per GET of the whole palette %s µs (%,d GETs), per MGET of its keys %s µs (%,d MGETs)"
                    .formatted(round, micros(reading.get()), reading.get().commands(), micros(reading.mget()), reading.mget().commands()));
        }
        catch (RuntimeException ex) {
            status = 500;
            body = String.valueOf(ex.getMessage()).getBytes(StandardCharsets.UTF_8);
            Console.info("the floor of round %s was not measured: %s".formatted(round, ex.getMessage()));
        }
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private static String micros(FloorReading.Work work) {
        return work.microsPerCommand() == null ? "missing" : "%.1f".formatted(work.microsPerCommand());
    }

    /** Redis's CPU so far: {@code used_cpu_user + used_cpu_sys} of {@code INFO cpu}, read as a row's store is; empty where it cannot be. */
    private synchronized Optional<Double> redisCpuSeconds(String url) {
        Map<String, Double> cpu = info(connection(url), "cpu", ownTraffic.computeIfAbsent(url, key -> new OwnTraffic()));
        return cpu.containsKey("used_cpu_user") && cpu.containsKey("used_cpu_sys")
                ? Optional.of(cpu.get("used_cpu_user") + cpu.get("used_cpu_sys")) : Optional.empty();
    }

    private StatefulRedisConnection<String, String> connection(String url) {
        return redis.computeIfAbsent(url, key -> {
            RedisURI uri = RedisURI.create(key);
            uri.setTimeout(Duration.ofSeconds(2));
            RedisClient client = RedisClient.create(uri);
            // RESP2: INFO answers a plain bulk string, whose bytes on the wire the reading counts as its own ({@link #replyBytes})
            client.setOptions(ClientOptions.builder().protocolVersion(ProtocolVersion.RESP2).build());
            redisClients.put(key, client);
            return client.connect();
        });
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
        StoreReading store = store(module);
        store.cpuSeconds().ifPresent(seconds -> measurements.add(measurement("STORE", seconds)));
        store.inBytes().ifPresent(bytes -> measurements.add(measurement("STORE_IN_BYTES", bytes)));
        store.outBytes().ifPresent(bytes -> measurements.add(measurement("STORE_OUT_BYTES", bytes)));
        ProcessHandle load = jmeter;
        if (load != null) {
            seconds(load).ifPresent(seconds -> measurements.add(measurement("JMETER", seconds)));
        }
        return measurements;
    }

    /** What the store had spent so far: its CPU seconds, and for Redis the bytes it read from and wrote to its clients, minus this reader's own. */
    private record StoreReading(Optional<Double> cpuSeconds, Optional<Double> inBytes, Optional<Double> outBytes) {
    }

    /**
     * The bytes this reader's own {@code INFO} commands and replies put into one Redis server's counters so far: what it sent
     * ({@code in}, as Redis counts input) and what it got back ({@code out}).
     */
    private static final class OwnTraffic {

        double in;

        double out;
    }

    /** The store the row reads: Redis, the embedded PostgreSQL, or none (CPU 0) for the ceiling; a figure empty where it cannot be read. */
    private StoreReading store(RunningModule module) {
        Store store = module.target().module().store();
        if (store == Store.NONE) {
            return new StoreReading(Optional.of(0.0), Optional.empty(), Optional.empty());
        }
        if (store == Store.POSTGRESQL) {
            List<ProcessHandle> database = stores.databaseProcesses();
            return new StoreReading(database.isEmpty() ? Optional.empty()
                    : Optional.of(database.stream().map(CpuReadings::seconds).flatMap(Optional::stream).mapToDouble(Double::doubleValue).sum()),
                    Optional.empty(), Optional.empty());
        }
        double seconds = 0;
        double in = 0;
        double out = 0;
        boolean cpuRead = true;
        boolean bytesRead = true;
        for (String url : stores.redisUrlsOf(module.target())) {
            StatefulRedisConnection<String, String> connection = connection(url);
            OwnTraffic own = ownTraffic.computeIfAbsent(url, key -> new OwnTraffic());
            Map<String, Double> cpu = info(connection, "cpu", own);
            if (cpu.containsKey("used_cpu_user") && cpu.containsKey("used_cpu_sys")) {
                seconds += cpu.get("used_cpu_user") + cpu.get("used_cpu_sys");
            }
            else {
                cpuRead = false;
            }
            // read right after the CPU; its reply's own bytes are counted by Redis only once written, after these figures
            Map<String, Double> stats = info(connection, "stats", own);
            if (stats.containsKey("total_net_input_bytes") && stats.containsKey("total_net_output_bytes")) {
                // the command of this very reading is in Redis's input count already, its reply not yet in its output count
                in += stats.get("total_net_input_bytes") - own.in;
                out += stats.get("total_net_output_bytes") - (own.out - replyBytes(stats.get(REPLY_LENGTH)));
            }
            else {
                bytesRead = false;
            }
        }
        return new StoreReading(cpuRead ? Optional.of(seconds) : Optional.empty(), bytesRead ? Optional.of(in) : Optional.empty(),
                bytesRead ? Optional.of(out) : Optional.empty());
    }

    /** Where {@link #info} leaves the length of the reply it parsed, so that the reading can tell its own reply apart. */
    private static final String REPLY_LENGTH = " reply length";

    /**
     * The figures of one {@code INFO} section, after counting the command and its reply as this reader's own traffic. The
     * reply's length is left under {@link #REPLY_LENGTH}.
     */
    private static Map<String, Double> info(StatefulRedisConnection<String, String> connection, String section, OwnTraffic own) {
        String reply = connection.sync().info(section);
        own.in += commandBytes("INFO", section);
        double length = reply.getBytes(StandardCharsets.UTF_8).length;
        own.out += replyBytes(length);
        Map<String, Double> figures = new LinkedHashMap<>();
        for (String line : reply.split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                try {
                    figures.put(line.substring(0, colon), Double.parseDouble(line.substring(colon + 1).strip()));
                }
                catch (NumberFormatException ex) {
                    // not a figure
                }
            }
        }
        figures.put(REPLY_LENGTH, length);
        return figures;
    }

    /** A command as RESP puts it on the wire: {@code *2\r\n$4\r\nINFO\r\n$3\r\ncpu\r\n}. */
    static int commandBytes(String... words) {
        int bytes = header(words.length);
        for (String word : words) {
            int length = word.getBytes(StandardCharsets.UTF_8).length;
            bytes += header(length) + length + 2;
        }
        return bytes;
    }

    /** A bulk string reply of {@code length} bytes as RESP puts it on the wire: {@code $<length>\r\n<payload>\r\n}. */
    static double replyBytes(double length) {
        return header((long) length) + length + 2;
    }

    /** {@code *2\r\n} or {@code $1024\r\n}: the type's one byte, the count, CR LF. */
    private static int header(long count) {
        return 1 + String.valueOf(count).length() + 2;
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
