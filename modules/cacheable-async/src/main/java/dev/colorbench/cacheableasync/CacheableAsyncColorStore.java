package dev.colorbench.cacheableasync;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import dev.colorbench.core.ColorSeeder;
import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.core.web.ColorStore;

import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;
import org.springframework.data.redis.cache.RedisCacheWriter;
import org.springframework.stereotype.Component;

/**
 * {@code @Cacheable} per color, as in cacheable-loop, but asynchronous: {@link AsyncColorLookup}
 * returns a {@code CompletableFuture}, the store starts the lookups of all the names before it
 * waits for any, and joins them. One {@code GET /colors} costs <b>148 GET</b> on a warm cache (and
 * <b>148 GET + 148 SET</b> on a cold one), as in the loop, but they are in flight together on one
 * Lettuce connection, which matches the replies to the commands as they come back: the request
 * does not wait for one reply before it sends the next command.
 *
 * <p>How many socket reads Redis needs for them (the round trips the benchmark counts) depends on
 * how the burst reaches it, and varies with thread scheduling. With flushes consolidated (the
 * default, see {@link CacheableAsyncApplication}) most requests take <b>a few</b>; with Lettuce's
 * flush per command, many more. {@code CacheableAsyncContractTest} and
 * {@code CacheableAsyncFlushPerCommandTest} print both (the module's README). Lookups one after
 * another would take 148.
 *
 * <p>The pattern stays inside Spring's cache abstraction, keys and values unchanged (it shares
 * cacheable-loop's), and gets much of what one MGET gets without a bulk operation: one wait, not
 * one command. Redis still executes 148 commands, and the client builds and matches 148. Each
 * distinct name is looked up once per request ({@code ?names=red,red} is 1 GET).
 *
 * <p>What the asynchronous path took:
 * <ul>
 * <li>a {@code RedisCacheWriter} that can run asynchronously. Spring Data Redis's default writer
 * retrieves and stores through a reactive connection when its connection factory is also a
 * {@code ReactiveRedisConnectionFactory}: Lettuce's is (and brings Reactor); Jedis's is not, and
 * {@code RedisCache.retrieve} then throws {@code UnsupportedOperationException}. The store checks
 * this at start-up instead;</li>
 * <li>{@code @Cacheable(sync = true)} on the method returning {@code CompletableFuture}, so that
 * Spring asks the cache for {@code retrieve(key, loader)}, which reads, loads and stores without
 * blocking (see {@link AsyncColorLookup});</li>
 * <li>color-core's checks on that path ({@code CheckedColorCache.retrieve}): a bad value (not JSON,
 * another shape, another color's JSON, a key of another type) is found inside the future, warned
 * about once naming the key, loaded from the palette and stored again asynchronously, for
 * <b>GET + SET</b> of that key once. Spring's own path for a failed asynchronous read would evict
 * and put with blocking calls on Lettuce's event loop. A store Redis refuses (memory full) is
 * logged and the loaded color answered. A raw I/O error from the reactive path (a command in
 * flight when Redis dies) becomes a Redis failure there too, as the blocking path would make it;</li>
 * <li>for few round trips rather than many, one flush for a burst of commands instead of one each
 * ({@link CacheableAsyncApplication#consolidateFlushes}).</li>
 * </ul>
 *
 * <p>When Redis fails, the lookups fail together (the command timeout applies to each, in
 * parallel), and the request is a 503.
 *
 * <p>Seeding puts every color into the cache (148 SET) and reads them once (148 GET), so the first request is already warm.
 */
@Component
class CacheableAsyncColorStore implements ColorStore, ColorSeeder {

    private final AsyncColorLookup lookup;

    private final Cache cache;

    CacheableAsyncColorStore(AsyncColorLookup lookup, CacheManager cacheManager) {
        this.lookup = lookup;
        this.cache = Objects.requireNonNull(cacheManager.getCache(ColorKeys.CACHE_NAME));
        if (!(cache.getNativeCache() instanceof RedisCacheWriter writer && writer.supportsAsyncRetrieve())) {
            throw new IllegalStateException("The color cache cannot retrieve asynchronously: its RedisCacheWriter needs a connection"
                    + " factory that is also a ReactiveRedisConnectionFactory (Lettuce), not " + cache.getNativeCache());
        }
    }

    @Override
    public List<Color> findAll() {
        return findByNames(Palette.names());
    }

    /** Starts one lookup per distinct name, then waits for them all. */
    @Override
    public List<Color> findByNames(List<String> names) {
        Map<String, CompletableFuture<Color>> lookups = new LinkedHashMap<>();
        for (String name : names) {
            lookups.computeIfAbsent(name, lookup::findByName);
        }
        try {
            CompletableFuture.allOf(lookups.values().toArray(CompletableFuture[]::new)).join();
            return names.stream().map(name -> lookups.get(name).join()).toList();
        }
        catch (CompletionException ex) {
            throw unwrap(ex);
        }
    }

    /** What failed a lookup, a Redis failure ({@code DataAccessException}) for the 503 handler, without the futures' wrapping. */
    private static RuntimeException unwrap(CompletionException ex) {
        Throwable cause = ex;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return (cause instanceof RuntimeException runtime) ? runtime : ex;
    }

    /**
     * Puts every color, then reads them once through the asynchronous path: the first read of a cold JVM sets up the
     * reactive connection and its code, which on a loaded machine outlasts the 500 ms command time-out of a request.
     */
    @Override
    public void seed() {
        Palette.all().forEach(color -> cache.put(color.name(), color));
        findAll();
    }
}
