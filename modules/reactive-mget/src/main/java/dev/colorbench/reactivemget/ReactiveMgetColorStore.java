package dev.colorbench.reactivemget;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import dev.colorbench.core.Color;
import dev.colorbench.core.ColorKeys;
import dev.colorbench.core.ColorSeeder;
import dev.colorbench.core.Palette;
import reactor.core.publisher.Mono;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.core.ReactiveRedisTemplate;
import org.springframework.data.redis.core.ReactiveValueOperations;
import org.springframework.stereotype.Component;

/**
 * WebFlux with {@code ReactiveRedisTemplate} multi-get. One {@code GET /colors} costs
 * <b>1 MGET</b>, like the blocking template, but no thread waits for Redis: the event loop
 * sends the MGET and moves on, and the reply completes the response. A subset costs 1 MGET
 * of just those keys.
 *
 * <p>Seeding is 1 MSET. A read that finds keys missing re-seeds, without blocking, and answers
 * from the palette. Reactive commands time out like blocking ones only because the core turns
 * on Lettuce's {@code TimeoutOptions}: by default Lettuce times out synchronous calls alone.
 */
@Component
class ReactiveMgetColorStore implements ColorSeeder {

    private static final Duration SEED_TIMEOUT = Duration.ofSeconds(5);

    private final ReactiveValueOperations<String, Color> values;

    ReactiveMgetColorStore(ReactiveRedisTemplate<String, Color> colorTemplate) {
        this.values = colorTemplate.opsForValue();
    }

    Mono<List<Color>> findAll() {
        return read(ColorKeys.allJsonKeys(), Palette.names());
    }

    Mono<List<Color>> findByNames(List<String> names) {
        return read(ColorKeys.jsonKeys(names), names);
    }

    private Mono<List<Color>> read(List<String> keys, List<String> names) {
        return values.multiGet(keys)
                .flatMap(found -> found.stream().anyMatch(Objects::isNull)
                        ? writePalette().thenReturn(Palette.colors(names))
                        : Mono.just(found))
                .onErrorMap(error -> !(error instanceof DataAccessException), RedisUnreachable::new);
    }

    /**
     * Spring Data translates Lettuce's own exceptions but lets a raw Netty I/O error through
     * the reactive path (a command in flight when Redis dies ends in "connection reset"):
     * it is a Redis failure all the same, and gets the same 503.
     */
    private static final class RedisUnreachable extends RedisConnectionFailureException {

        RedisUnreachable(Throwable cause) {
            super("Redis connection failed", cause);
        }
    }

    private Mono<Boolean> writePalette() {
        return values.multiSet(ColorKeys.paletteByJsonKey());
    }

    /** Blocks, so it is only for start-up and tests, never for a request. */
    @Override
    public void seed() {
        writePalette().block(SEED_TIMEOUT);
    }
}
