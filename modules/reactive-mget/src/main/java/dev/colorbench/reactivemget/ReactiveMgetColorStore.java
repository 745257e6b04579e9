package dev.colorbench.reactivemget;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.colorbench.core.ColorSeeder;
import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorCodec;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.core.redis.Healing;
import dev.colorbench.core.redis.JsonKeys;
import dev.colorbench.core.redis.RedisClientFailures;
import dev.colorbench.core.redis.RedisReplies;
import dev.colorbench.core.redis.StoredColors;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.data.redis.connection.DataType;
import org.springframework.data.redis.core.ReactiveRedisTemplate;
import org.springframework.data.redis.core.ReactiveValueOperations;
import org.springframework.stereotype.Component;

/**
 * WebFlux with {@code ReactiveRedisTemplate} multi-get. One {@code GET /colors} costs
 * <b>1 MGET</b>, like the blocking template, but no thread waits for Redis: the event loop
 * sends the MGET and moves on, and the reply completes the response. A subset costs 1 MGET
 * of just those keys.
 *
 * <p>The 148 values are decoded, and the answer encoded, on Reactor's parallel scheduler, one thread per core, not on
 * the thread that completed Lettuce's reply: that is the one event loop of the shared connection, where every request's
 * decoding would wait for the others', and their replies behind it (with 100 clients, 503s from command timeouts). The
 * {@code on-loop} variant ({@code colorbench.reactive.decode-on=event-loop}) is the stock chain; the README has both measured.
 *
 * <p>Seeding is 1 MSET. Bad data heals as in template-mget, without blocking: each value is
 * decoded by the core's {@link ColorCodec} against its own key; missing and unreadable ones are
 * answered from the palette and written back with <b>1 MSET of just those keys</b>, after
 * <b>1 EXISTS</b> of the keys MGET found empty (and <b>1 TYPE per empty key</b> if any of them
 * holds another type, to name it in the warning). A write Redis refuses (memory full) is logged
 * and the palette's answer stands. Reactive commands time out like blocking ones only because
 * the core turns on Lettuce's {@code TimeoutOptions}: by default Lettuce times out synchronous
 * calls alone.
 *
 * <p><b>On a Redis Cluster</b> the reactive cluster connection hands the MGET of the 148 plain
 * {@code colors::v3::<name>} keys (148 slots) to Lettuce's cluster API: <b>148 MGETs</b>, one per slot, on all
 * three masters at once, in a few dozen socket reads summed, which vary with thread scheduling
 * (docs/cluster.md). Its keys stay plain; the
 * hash-tagged layout is offered by template-mget and mget-raw, which read the same way.
 */
@Component
class ReactiveMgetColorStore implements ColorSeeder {

    private static final Duration SEED_TIMEOUT = Duration.ofSeconds(5);

    private final ReactiveRedisTemplate<String, byte[]> template;

    private final ReactiveValueOperations<String, byte[]> values;

    private final ColorCodec codec;

    /** Where the reply is decoded and the answer encoded: null for the thread that completed the reply (Lettuce's event loop). */
    private final Scheduler decodeOn;

    ReactiveMgetColorStore(ReactiveRedisTemplate<String, byte[]> colorTemplate, ColorCodec codec,
            @Value("${colorbench.reactive.decode-on:parallel}") String decodeOn) {
        this.template = colorTemplate;
        this.values = colorTemplate.opsForValue();
        this.codec = codec;
        this.decodeOn = switch (decodeOn) {
            case "event-loop" -> null;
            case "parallel" -> Schedulers.parallel();
            default -> throw new IllegalArgumentException("colorbench.reactive.decode-on is event-loop or parallel, not " + decodeOn);
        };
    }

    Mono<List<Color>> findAll() {
        return read(JsonKeys.plain().all(), Palette.names());
    }

    Mono<List<Color>> findByNames(List<String> names) {
        return read(JsonKeys.plain().forNames(names), names);
    }

    private Mono<List<Color>> read(List<String> keys, List<String> names) {
        Mono<List<byte[]>> found = values.multiGet(keys);
        return (decodeOn == null ? found : found.publishOn(decodeOn))
                .map(replies -> codec.decodeAll(names, replies))
                .flatMap(stored -> stored.complete() ? Mono.just(stored.colors()) : heal(stored).thenReturn(stored.colors()))
                .onErrorMap(RedisClientFailures::isUntranslated, RedisClientFailures::translate);
    }

    private Mono<Void> heal(StoredColors stored) {
        List<String> missingKeys = JsonKeys.plain().forNames(stored.missing());
        Mono<List<String>> wrongType = missingKeys.isEmpty() ? Mono.just(List.of())
                : template.countExistingKeys(missingKeys).flatMap(existing -> existing == 0 ? Mono.just(List.<String>of())
                        : Flux.fromIterable(stored.missing())
                                .filterWhen(name -> template.type(ColorKeys.jsonKey(name)).map(type -> type != DataType.NONE))
                                .collectList());
        return wrongType.flatMap(names -> {
            Healing.report(stored, names, ColorKeys::jsonKey);
            Map<String, byte[]> encoded = codec.encodeAll(Palette.colors(stored.toWrite()), ColorKeys::jsonKey);
            return values.multiSet(encoded).onErrorResume(RedisReplies::isRefusedWrite, error -> {
                Healing.writeRefused(encoded.size(), error);
                return Mono.just(false);
            });
        }).then();
    }

    /** Blocks, so it is only for start-up and tests, never for a request. */
    @Override
    public void seed() {
        values.multiSet(codec.encodeAll(Palette.all(), ColorKeys::jsonKey)).block(SEED_TIMEOUT);
    }
}
