package dev.colorbench.benchmark.scenario;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import dev.colorbench.benchmark.modules.Layout;
import dev.colorbench.core.jdbc.ColorSchema;
import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorCodec;
import dev.colorbench.core.redis.ColorKeys;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import tools.jackson.databind.json.JsonMapper;

/**
 * Another client of the modules' stores, on connections of its own: it changes one color where each {@link Layout} keeps
 * it, reads back what a layout holds, and puts the palette back. It touches only the project's own keys and table,
 * and never reads or deletes anything wider.
 *
 * <p>What one change costs the writer differs by layout, and it counts it: one {@code SET} of one color's JSON
 * (about 70 bytes) where each color has a key, one {@code HSET} of four fields for a repository's hash, one
 * {@code UPDATE} of a row, but a rewrite of the whole palette's array (10,203 bytes) where the palette is cached as one
 * value. This client is the only writer, so it keeps that array itself instead of reading it first; two writers
 * would each need a {@code GET} and a {@code SET} under {@code WATCH}, or lose each other's changes.
 */
final class StoredPalettes implements AutoCloseable {

    private static final long TIMEOUT_SECONDS = 5;

    private static final String UPDATE = "UPDATE " + ColorSchema.TABLE + " SET hex = ?, red = ?, green = ?, blue = ?, padding = ? WHERE name = ?";

    private static final String SELECT = "SELECT name, hex, red, green, blue, padding FROM " + ColorSchema.TABLE;

    private final RedisClient client;

    private final StatefulRedisConnection<String, String> redis;

    private final Connection database;

    private final ColorCodec codec = new ColorCodec(JsonMapper.builder().build());

    /** The palette as this client last wrote it where it is one value. */
    private final Color[] cachedPalette = Palette.all().toArray(Color[]::new);

    private final Map<Layout, long[]> written = new EnumMap<>(Layout.class);

    /** Changes of the table not made yet, and the one thread that makes them. */
    private final Queue<Color> tableChanges = new ConcurrentLinkedQueue<>();

    private final ExecutorService tableWriter = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "table writer");
        thread.setDaemon(true);
        return thread;
    });

    private StoredPalettes(RedisClient client, StatefulRedisConnection<String, String> redis, Connection database) {
        this.client = client;
        this.redis = redis;
        this.database = database;
    }

    /** Connects to the run's Redis and, when {@code databaseUrl} is not null, its PostgreSQL. */
    static StoredPalettes connect(String redisUrl, String databaseUrl) {
        RedisClient client = RedisClient.create(redisUrl);
        try {
            Connection database = databaseUrl == null ? null : DriverManager.getConnection(databaseUrl);
            if (database != null) {
                database.setAutoCommit(true);
            }
            return new StoredPalettes(client, client.connect(), database);
        }
        catch (SQLException | RuntimeException ex) {
            client.shutdown();
            throw new IllegalStateException("Cannot connect to the run's stores as another client", ex);
        }
    }

    /**
     * Sends the writes of {@code changed} (a palette color, at {@code position} in the palette) where each of
     * {@code layouts} keeps it, without waiting for them. The future completes, with {@link System#nanoTime()} when Redis
     * replied to the first of them (the {@link Layout#JSON_STRINGS} write, sent first, when there is one), once Redis
     * replied to all; a row of the table is updated on a thread of its own, in batches of what has queued up.
     */
    CompletableFuture<Long> write(List<Layout> layouts, int position, Color changed) {
        RedisAsyncCommands<String, String> async = redis.async();
        List<CompletableFuture<?>> sent = new ArrayList<>();
        for (Layout layout : layouts) {
            RedisFuture<?> future = switch (layout) {
                case JSON_STRINGS -> set(async, layout, ColorKeys.jsonKey(changed.name()), ColorJson.of(changed));
                case CACHE_STRINGS -> set(async, layout, ColorKeys.cacheKey(changed.name()), ColorJson.of(changed));
                case PALETTE_STRING -> {
                    cachedPalette[position] = changed;
                    yield set(async, layout, ColorKeys.paletteCacheKey(), ColorJson.of(Arrays.asList(cachedPalette)));
                }
                case PALETTE_HASH -> {
                    String json = ColorJson.of(changed);
                    count(layout, changed.name().length() + json.length());
                    yield async.hset(ColorKeys.PALETTE_HASH, changed.name(), json);
                }
                case REPOSITORY_HASHES -> {
                    Map<String, String> fields = fields(changed);
                    count(layout, fields.values().stream().mapToInt(String::length).sum());
                    yield async.hset(ColorKeys.hashKey(changed.name()), fields);
                }
                case TABLE -> {
                    count(layout, ColorJson.of(changed).length());
                    tableChanges.add(changed);
                    tableWriter.execute(this::updateQueued);
                    yield null;
                }
                case NONE -> null;
            };
            if (future != null) {
                sent.add(future.toCompletableFuture());
            }
        }
        if (sent.isEmpty()) {
            return CompletableFuture.completedFuture(System.nanoTime());
        }
        CompletableFuture<Long> firstReply = sent.get(0).thenApply(reply -> System.nanoTime());
        return CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).thenCompose(all -> firstReply);
    }

    /** Waits until every queued update of the table is made, and fails if one failed. */
    void awaitTable() {
        try {
            tableWriter.submit(this::updateQueued).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        catch (ExecutionException | TimeoutException ex) {
            throw new IllegalStateException("The table's updates did not finish within " + TIMEOUT_SECONDS + " s", ex);
        }
    }

    private void updateQueued() {
        List<Color> batch = new ArrayList<>();
        for (Color color = tableChanges.poll(); color != null; color = tableChanges.poll()) {
            batch.add(color);
        }
        if (!batch.isEmpty()) {
            update(batch);
        }
    }

    /** Each palette color as the store holds it for {@code layout}, in palette order; null where it holds nothing readable. */
    List<Color> held(Layout layout) {
        List<String> names = Palette.names();
        return switch (layout) {
            case NONE -> Palette.all();
            case JSON_STRINGS -> decodeAll(names, await(redis.async().mget(names.stream().map(ColorKeys::jsonKey).toArray(String[]::new))));
            case CACHE_STRINGS -> decodeAll(names, await(redis.async().mget(names.stream().map(ColorKeys::cacheKey).toArray(String[]::new))));
            case PALETTE_HASH -> decodeAll(names, await(redis.async().hmget(ColorKeys.PALETTE_HASH, names.toArray(String[]::new))));
            case PALETTE_STRING -> palette(await(redis.async().get(ColorKeys.paletteCacheKey())));
            case REPOSITORY_HASHES -> {
                List<RedisFuture<Map<String, String>>> hashes = names.stream().map(name -> redis.async().hgetall(ColorKeys.hashKey(name))).toList();
                List<Color> colors = new ArrayList<>();
                for (int i = 0; i < names.size(); i++) {
                    colors.add(fromFields(names.get(i), await(hashes.get(i))));
                }
                yield colors;
            }
            case TABLE -> table();
        };
    }

    /** Puts the palette back where each of {@code layouts} keeps it. */
    void restore(List<Layout> layouts) {
        List<Color> palette = Palette.all();
        Arrays.setAll(cachedPalette, palette::get);
        RedisAsyncCommands<String, String> async = redis.async();
        List<RedisFuture<?>> sent = new ArrayList<>();
        for (Layout layout : layouts) {
            switch (layout) {
                case JSON_STRINGS -> sent.add(async.mset(byKey(palette, ColorKeys::jsonKey)));
                case CACHE_STRINGS -> sent.add(async.mset(byKey(palette, ColorKeys::cacheKey)));
                case PALETTE_STRING -> sent.add(async.set(ColorKeys.paletteCacheKey(), ColorJson.palette()));
                case PALETTE_HASH -> sent.add(async.hset(ColorKeys.PALETTE_HASH, byKey(palette, name -> name)));
                case REPOSITORY_HASHES -> palette.forEach(color -> sent.add(async.hset(ColorKeys.hashKey(color.name()), fields(color))));
                case TABLE -> {
                    awaitTable();
                    update(palette);
                }
                case NONE -> {
                }
            }
        }
        sent.forEach(StoredPalettes::await);
    }

    /** The bytes of stored values this client has written per change, by layout, since it was made: the payload, not the protocol. */
    synchronized Map<Layout, Double> bytesPerChange() {
        Map<Layout, Double> perChange = new LinkedHashMap<>();
        written.forEach((layout, counts) -> perChange.put(layout, counts[0] == 0 ? 0 : counts[1] / (double) counts[0]));
        return perChange;
    }

    private RedisFuture<String> set(RedisAsyncCommands<String, String> async, Layout layout, String key, String value) {
        count(layout, value.length());
        return async.set(key, value);
    }

    private synchronized void count(Layout layout, int bytes) {
        long[] counts = written.computeIfAbsent(layout, key -> new long[2]);
        counts[0]++;
        counts[1] += bytes;
    }

    private List<Color> decodeAll(List<String> names, List<KeyValue<String, String>> values) {
        List<Color> colors = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            KeyValue<String, String> value = values.get(i);
            colors.add(value.hasValue() ? codec.decode(names.get(i), value.getValue()).orElse(null) : null);
        }
        return colors;
    }

    private List<Color> palette(String json) {
        List<Color> colors = new ArrayList<>(Collections.nCopies(Palette.names().size(), (Color) null));
        if (json == null) {
            return colors;
        }
        try {
            List<Color> stored = JsonMapper.builder().build().readerForListOf(Color.class).readValue(json);
            if (ColorCodec.isReadablePalette(stored)) {
                return stored;
            }
        }
        catch (RuntimeException ex) {
            // unreadable: every color missing
        }
        return colors;
    }

    private List<Color> table() {
        Map<String, Color> rows = new LinkedHashMap<>();
        try (PreparedStatement select = requireDatabase().prepareStatement(SELECT); ResultSet result = select.executeQuery()) {
            while (result.next()) {
                Color color = new Color(result.getString(1), result.getString(2), result.getInt(3), result.getInt(4), result.getInt(5),
                        result.getString(6));
                rows.put(color.name(), ColorCodec.isReadable(color.name(), color) ? color : null);
            }
        }
        catch (SQLException ex) {
            throw new IllegalStateException("Cannot read " + ColorSchema.TABLE, ex);
        }
        return Palette.names().stream().map(rows::get).toList();
    }

    private void update(List<Color> colors) {
        try (PreparedStatement update = requireDatabase().prepareStatement(UPDATE)) {
            for (Color color : colors) {
                update.setString(1, color.hex());
                update.setInt(2, color.red());
                update.setInt(3, color.green());
                update.setInt(4, color.blue());
                update.setString(5, color.padding());
                update.setString(6, color.name());
                update.addBatch();
            }
            update.executeBatch();
        }
        catch (SQLException ex) {
            throw new IllegalStateException("Cannot update " + ColorSchema.TABLE, ex);
        }
    }

    private Connection requireDatabase() {
        if (database == null) {
            throw new IllegalStateException("No PostgreSQL in this run: no row reads " + ColorSchema.TABLE);
        }
        return database;
    }

    private static Color fromFields(String name, Map<String, String> fields) {
        try {
            Color color = new Color(name, fields.get("hex"), Integer.parseInt(fields.get("red")), Integer.parseInt(fields.get("green")),
                    Integer.parseInt(fields.get("blue")), fields.get("padding"));
            return ColorCodec.isReadable(name, color) && name.equals(fields.get("name")) ? color : null;
        }
        catch (RuntimeException ex) {
            return null;
        }
    }

    /**
     * The fields Spring Data's mapping writes for a color's hash, but its type hint, which a change leaves as it was; the
     * padding only when the color has one, as the mapping leaves a null out.
     */
    private static Map<String, String> fields(Color color) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("name", color.name());
        fields.put("hex", color.hex());
        fields.put("red", String.valueOf(color.red()));
        fields.put("green", String.valueOf(color.green()));
        fields.put("blue", String.valueOf(color.blue()));
        if (color.padding() != null) {
            fields.put("padding", color.padding());
        }
        return fields;
    }

    private static Map<String, String> byKey(List<Color> colors, Function<String, String> keyOf) {
        Map<String, String> values = new LinkedHashMap<>();
        colors.forEach(color -> values.put(keyOf.apply(color.name()), ColorJson.of(color)));
        return values;
    }

    private static <T> T await(RedisFuture<T> future) {
        try {
            return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
        catch (ExecutionException | TimeoutException ex) {
            throw new IllegalStateException("Redis did not answer another client's command within " + TIMEOUT_SECONDS + " s", ex);
        }
    }

    @Override
    public void close() {
        tableWriter.shutdownNow();
        try {
            if (database != null) {
                database.close();
            }
        }
        catch (SQLException ex) {
            // closing anyway
        }
        redis.close();
        client.shutdown();
    }
}
