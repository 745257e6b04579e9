package com.example.colors;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.core.ReactiveRedisTemplate;
import org.springframework.data.redis.core.ReactiveValueOperations;
import org.springframework.stereotype.Component;

/**
 * The pattern: one GET /colors is 1 MGET of the 148 keys colors::v3::&lt;name&gt;, one command and one round trip, and
 * no thread waits for it: Lettuce's event loop sends it, and its reply completes the response. The reply is decoded on
 * Reactor's parallel scheduler, so that the one event loop of the shared connection only moves bytes. A color that is
 * missing (Redis restarted empty) or unreadable is answered from the {@link ColorSource} and written back with 1 MSET
 * of just those keys, on the same chain, so that a read never serves a partial list.
 */
@Component
class ColorStore {

    private static final Logger log = LoggerFactory.getLogger(ColorStore.class);

    private final ReactiveValueOperations<String, byte[]> values;

    private final JsonMapper mapper;

    private final ColorSource source;

    private final List<String> names;

    private final List<String> keys;

    ColorStore(ReactiveRedisTemplate<String, byte[]> colorTemplate, JsonMapper mapper, ColorSource source) {
        this.values = colorTemplate.opsForValue();
        this.mapper = mapper;
        this.source = source;
        this.names = source.names();
        this.keys = names.stream().map(name -> "colors::v3::" + name).toList();
    }

    Mono<List<Color>> findAll() {
        return values.multiGet(keys)
                .publishOn(Schedulers.parallel())
                .flatMap(this::decodeAll)
                .onErrorMap(ColorStore::isRedisClientFailure,
                        ex -> new RedisConnectionFailureException("Redis connection failed", ex));
    }

    private Mono<List<Color>> decodeAll(List<byte[]> found) {
        List<Color> colors = new ArrayList<>(names.size());
        Map<String, byte[]> writeBack = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            Color color = decode(names.get(i), found.get(i));
            if (color == null) {
                color = source.find(names.get(i));
                writeBack.put(keys.get(i), mapper.writeValueAsBytes(color));
            }
            colors.add(color);
        }
        return writeBack.isEmpty() ? Mono.just(colors) : writeBack(writeBack).thenReturn(colors);
    }

    /** The color Redis holds for {@code name}, or null when it holds none, or something that is not that color. */
    private Color decode(String name, byte[] json) {
        if (json == null) {
            return null;
        }
        try {
            Color color = mapper.readValue(json, Color.class);
            return name.equals(color.name()) ? color : null;
        }
        catch (JacksonException ex) {
            log.warn("Unreadable value for color {} in Redis, written again: {}", name, ex.getOriginalMessage());
            return null;
        }
    }

    /** A write Redis refuses (memory full) leaves the answer standing; the next read tries again. */
    private Mono<Boolean> writeBack(Map<String, byte[]> colors) {
        return values.multiSet(colors).onErrorResume(DataAccessException.class, ex -> {
            log.warn("Could not write {} colors back to Redis: {}", colors.size(), ex.getMessage());
            return Mono.just(false);
        });
    }

    /**
     * Whether {@code error} is the Redis client's own and not yet a {@code DataAccessException}: on the reactive path
     * Spring Data Redis lets a raw I/O error through, such as the connection reset of a command in flight when Redis
     * stops. It is made one here, so that it too is a 503 and not a 500.
     */
    private static boolean isRedisClientFailure(Throwable error) {
        if (error instanceof DataAccessException) {
            return false;
        }
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            String type = cause.getClass().getName();
            if (cause instanceof IOException || type.startsWith("io.netty.") || type.startsWith("io.lettuce.")) {
                return true;
            }
        }
        return false;
    }
}
