package dev.colorbench.reactivemget;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import dev.colorbench.core.Color;
import dev.colorbench.core.ColorKeys;
import dev.colorbench.core.ColorSeeder;
import dev.colorbench.core.Palette;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.dao.QueryTimeoutException;
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
 * from the palette. Each read is bounded by the Redis command timeout on the Reactor side as
 * well as by Lettuce's: right after Redis restarts, a request can otherwise wait on a
 * connection that is still being re-established, past any command timeout.
 */
@Component
class ReactiveMgetColorStore implements ColorSeeder {

    private static final Duration SEED_TIMEOUT = Duration.ofSeconds(5);

    private final ReactiveValueOperations<String, Color> values;

    private final Duration commandTimeout;

    ReactiveMgetColorStore(ReactiveRedisTemplate<String, Color> colorTemplate,
            @Value("${spring.data.redis.timeout}") Duration commandTimeout) {
        this.values = colorTemplate.opsForValue();
        this.commandTimeout = commandTimeout;
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
                .timeout(commandTimeout, Mono.error(() -> new QueryTimeoutException("Redis did not answer in " + commandTimeout)));
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
