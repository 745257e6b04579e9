package dev.colorbench.benchmark.run;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.colorbench.benchmark.results.FloorReading;
import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.ColorJson;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;

/**
 * The floor's Redis work, measured by the harness itself in each round: one GET of the whole palette stored as one value, and
 * one MGET of the palette's keys, each sent for as long as a closed-model run, and Redis's CPU read around them as a row's is
 * read. The floor is the ceiling's CPU plus the lesser of the two, so that no row's figure depends on which rows ran
 * (docs/measuring.md#the-floor).
 *
 * <p>It writes keys of its own, in the project's {@code colors::} namespace under a name no module reads, with the bytes the
 * modules store: the palette's JSON under {@value #PALETTE_KEY}, each color's under {@value #PREFIX}{@code <name>}. It writes
 * them at its first measurement, and deletes exactly those when closed; it touches no other key, on an embedded server or on the
 * one {@code REDIS_URL} names.
 *
 * <p>The commands go over one connection shared by the run's client threads, as a module's requests share its one Lettuce
 * connection: Redis then reads several commands a wakeup, as it does under a row's load, and its CPU per command is the one a
 * row's would be. Each command's answer is checked for its length or its count, so that a key gone missing cannot pass for a
 * cheap read.
 */
final class RedisFloor implements AutoCloseable {

    /** Where each color's JSON is written: a name under the project's namespace that no module reads. */
    static final String PREFIX = "colors::floor::";

    /** Where the whole palette's JSON is written, as cacheable-list caches it under {@code colors::v4::palette}. */
    static final String PALETTE_KEY = "colors::floor";

    /** Keys a write or a delete sends at once: a palette of a workload run can have hundreds of thousands. */
    private static final int BATCH = 1_000;

    private final String redisUrl;

    private final byte[] paletteKey = PALETTE_KEY.getBytes(StandardCharsets.UTF_8);

    private final byte[] palette;

    private final Map<byte[], byte[]> colors = new LinkedHashMap<>();

    private final byte[][] keys;

    private final int threads;

    private final double leadInSeconds;

    private final double seconds;

    private final ExecutorService clients;

    private RedisClient client;

    private StatefulRedisConnection<byte[], byte[]> connection;

    private boolean written;

    /**
     * @param palette the colors the modules serve in this condition, in order
     * @param threads the client threads that send the commands: the closed model's
     * @param leadInSeconds how long each command is sent before Redis's CPU is read: the closed model's ramp-up
     * @param seconds how long each command is sent while Redis's CPU is read
     */
    RedisFloor(String redisUrl, List<Color> palette, int threads, double leadInSeconds, double seconds) {
        this.redisUrl = redisUrl;
        this.palette = ColorJson.of(palette).getBytes(StandardCharsets.UTF_8);
        palette.forEach(color -> colors.put((PREFIX + color.name()).getBytes(StandardCharsets.UTF_8),
                ColorJson.of(color).getBytes(StandardCharsets.UTF_8)));
        this.keys = colors.keySet().toArray(byte[][]::new);
        this.threads = threads;
        this.leadInSeconds = leadInSeconds;
        this.seconds = seconds;
        this.clients = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "floor client");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** For {@code condition}: its palette, the closed model's threads, its ramp-up as the lead-in and the rest of its run. */
    static RedisFloor of(String redisUrl, Condition condition) {
        var settings = condition.settings();
        return new RedisFloor(redisUrl, condition.palette(), settings.threads(), settings.rampupSeconds(),
                Math.max(1, settings.durationSeconds() - settings.rampupSeconds()));
    }

    /**
     * Measures one round's floor: the GET, then the MGET, each sent for the lead-in, then while {@code redisCpu} is read before
     * and after. Fails when Redis answers a command wrongly or its CPU cannot be read.
     */
    synchronized FloorReading measure(int round, Supplier<Optional<Double>> redisCpu) {
        RedisCommands<byte[], byte[]> redis = connected();
        int paletteBytes = palette.length;
        FloorReading.Work get = work(() -> {
            byte[] value = redis.get(paletteKey);
            if (value == null || value.length != paletteBytes) {
                throw new IllegalStateException("GET " + PALETTE_KEY + " answered " + (value == null ? "nothing" : value.length + " bytes")
                        + ", not the palette's " + paletteBytes);
            }
        }, redisCpu);
        FloorReading.Work mget = work(() -> {
            List<KeyValue<byte[], byte[]>> values = redis.mget(keys);
            if (values.size() != keys.length || values.stream().anyMatch(value -> !value.hasValue())) {
                throw new IllegalStateException("MGET of the %d keys under %s answered %d values".formatted(keys.length, PREFIX,
                        values.stream().filter(KeyValue::hasValue).count()));
            }
        }, redisCpu);
        return new FloorReading(round, get, mget);
    }

    private FloorReading.Work work(Runnable command, Supplier<Optional<Double>> redisCpu) {
        send(command, leadInSeconds);
        double before = cpu(redisCpu);
        long start = System.nanoTime();
        long commands = send(command, seconds);
        double elapsed = (System.nanoTime() - start) / 1e9;
        return new FloorReading.Work(commands, cpu(redisCpu) - before, elapsed);
    }

    private static double cpu(Supplier<Optional<Double>> redisCpu) {
        return redisCpu.get().orElseThrow(() -> new IllegalStateException("Redis's CPU could not be read (INFO cpu)"));
    }

    /** Sends {@code command} from every client thread until {@code seconds} have passed, each waiting for its answer; how many were answered. */
    private long send(Runnable command, double seconds) {
        if (seconds <= 0) {
            return 0;
        }
        long until = System.nanoTime() + (long) (seconds * 1e9);
        List<Future<Long>> sent = new ArrayList<>();
        for (int thread = 0; thread < threads; thread++) {
            sent.add(clients.submit(() -> {
                long answered = 0;
                while (System.nanoTime() < until) {
                    command.run();
                    answered++;
                }
                return answered;
            }));
        }
        long answered = 0;
        try {
            for (Future<Long> each : sent) {
                answered += each.get();
            }
        }
        catch (ExecutionException ex) {
            sent.forEach(each -> each.cancel(true));
            throw new IllegalStateException("The floor's commands failed: " + ex.getCause().getMessage(), ex.getCause());
        }
        catch (InterruptedException ex) {
            sent.forEach(each -> each.cancel(true));
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while measuring the floor", ex);
        }
        return answered;
    }

    /** The connection, and the keys written, at the first measurement: a run that measures no floor writes nothing. */
    private RedisCommands<byte[], byte[]> connected() {
        if (connection == null) {
            client = RedisClient.create(redisUrl);
            connection = client.connect(ByteArrayCodec.INSTANCE);
        }
        RedisCommands<byte[], byte[]> redis = connection.sync();
        if (!written) {
            // counted as written before the first write, so that a write that failed half-way is deleted all the same
            written = true;
            redis.set(paletteKey, palette);
            List<byte[]> all = new ArrayList<>(colors.keySet());
            for (int from = 0; from < all.size(); from += BATCH) {
                Map<byte[], byte[]> batch = new LinkedHashMap<>();
                all.subList(from, Math.min(all.size(), from + BATCH)).forEach(key -> batch.put(key, colors.get(key)));
                redis.mset(batch);
            }
        }
        return redis;
    }

    /** The keys this floor writes, and deletes when closed. */
    List<String> keys() {
        List<String> all = new ArrayList<>(List.of(PALETTE_KEY));
        colors.keySet().forEach(key -> all.add(new String(key, StandardCharsets.UTF_8)));
        return all;
    }

    /**
     * Deletes the keys it wrote, and only those, then lets go of Redis. A measurement under way stops first: its client threads
     * are interrupted, so that a run stopped by Ctrl-C does not wait for it.
     */
    @Override
    public void close() {
        clients.shutdownNow();
        synchronized (this) {
            if (connection == null) {
                return;
            }
            try {
                if (written) {
                    RedisCommands<byte[], byte[]> redis = connection.sync();
                    redis.del(paletteKey);
                    for (int from = 0; from < keys.length; from += BATCH) {
                        redis.del(java.util.Arrays.copyOfRange(keys, from, Math.min(keys.length, from + BATCH)));
                    }
                }
            }
            finally {
                connection.close();
                client.shutdown(0, 2, TimeUnit.SECONDS);
            }
        }
    }
}
