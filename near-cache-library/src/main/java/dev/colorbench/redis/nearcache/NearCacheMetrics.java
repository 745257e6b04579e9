package dev.colorbench.redis.nearcache;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The near cache's meters, for Micrometer (made by {@link NearCacheAutoConfiguration} when Micrometer is
 * there). Per cache, tagged {@code cache}: {@code near.cache.gets} ({@code result} hit or miss),
 * {@code near.cache.loads} ({@code result} success or failure) and {@code near.cache.load.duration},
 * {@code near.cache.loads.shared}, {@code near.cache.puts.refused}, {@code near.cache.evictions}
 * ({@code cause} size or expired), {@code near.cache.invalidations}, {@code near.cache.size} and
 * {@code near.cache.bytes}. For the tracking: {@code near.cache.tracking} (1 while the copies answer),
 * {@code near.cache.enabled}, {@code near.cache.servers} and {@code near.cache.servers.tracking},
 * {@code near.cache.sessions}, {@code near.cache.drops} ({@code reason} connection or delivery), {@code near.cache.lates},
 * {@code near.cache.invalidation.messages}, {@code near.cache.topology.changes} and {@code near.cache.topology.check.failures}.
 * Per tracked server, tagged {@code server}: {@code near.cache.server.tracking}, {@code near.cache.server.pushes},
 * {@code near.cache.server.drops} and {@code near.cache.server.canary} (a timer of the canaries proven). Each is read from
 * the library's own counters when scraped, so the read path counts with a {@code LongAdder} and
 * nothing more.
 */
public final class NearCacheMetrics implements MeterBinder {

    private final NearCacheTracking tracking;

    private final Map<NearCache<?>, List<Meter>> meters = new ConcurrentHashMap<>();

    private final Map<TrackedServer, List<Meter>> serverMeters = new ConcurrentHashMap<>();

    private volatile MeterRegistry registry;

    public NearCacheMetrics(NearCacheTracking tracking) {
        this.tracking = tracking;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("near.cache.tracking", tracking, t -> t.isActive() ? 1 : 0)
                .description("1 while the local copies answer, 0 while every read goes to Redis").register(registry);
        Gauge.builder("near.cache.enabled", tracking, t -> t.isEnabled() ? 1 : 0)
                .description("1 unless redis.near-cache.enabled=false").register(registry);
        Gauge.builder("near.cache.servers", tracking, t -> t.servers().size())
                .description("Servers tracked: the Redis, or each master of a cluster").register(registry);
        Gauge.builder("near.cache.servers.tracking", tracking, t -> t.servers().values().stream().filter(Boolean::booleanValue).count())
                .description("Servers whose tracking connection tracks and answers its heartbeat").register(registry);
        counter(registry, "near.cache.sessions", NearCacheTracking::sessions, "Times every server confirmed tracking: copies started");
        // by reason, each its own count so that each only rises: the connection lost or silent (or a cluster's masters changed), or a
        // canary's invalidation that did not arrive (delivery); their sum is drops()
        FunctionCounter.builder("near.cache.drops", tracking, NearCacheTracking::connectionDrops).tags("reason", "connection")
                .description("Times the copies were dropped: a tracking connection lost or silent (connection), or a canary's invalidation not"
                        + " delivered on it (delivery)").register(registry);
        FunctionCounter.builder("near.cache.drops", tracking, NearCacheTracking::undelivered).tags("reason", "delivery")
                .description("Times the copies were dropped: a tracking connection lost or silent (connection), or a canary's invalidation not"
                        + " delivered on it (delivery)").register(registry);
        counter(registry, "near.cache.lates", NearCacheTracking::lates, "Times a heartbeat was late and the copies stopped answering until it came");
        counter(registry, "near.cache.invalidation.messages", NearCacheTracking::invalidations, "Invalidation messages received from Redis");
        counter(registry, "near.cache.topology.changes", NearCacheTracking::topologyChanges,
                "Times a cluster's masters, or the master a Sentinel names, changed");
        counter(registry, "near.cache.topology.check.failures", NearCacheTracking::topologyCheckFailures,
                "Checks of a cluster's masters, or of the master a Sentinel names, that failed: no answer within the topology refresh, an error, or an unreadable answer");
        tracking.onNewServer(this::bind);
        tracking.onClosedServer(this::unbind);
        tracking.trackedServers().forEach(this::bind);
        tracking.onNewCache(this::bind);
        tracking.onClosedCache(this::unbind);
        tracking.caches().forEach(this::bind);
    }

    private void counter(MeterRegistry registry, String name, ToDoubleFunction<NearCacheTracking> count, String description) {
        FunctionCounter.builder(name, tracking, count).description(description).register(registry);
    }

    private void bind(NearCache<?> cache) {
        MeterRegistry to = registry;
        if (to == null || meters.containsKey(cache)) {
            return;
        }
        Tags tags = Tags.of("cache", cache.name());
        List<Meter> bound = new ArrayList<>();
        bound.add(count(to, "near.cache.gets", tags.and("result", "hit"), cache, s -> s.hits(), "Reads of a key: answered from the copy (hit), or not (miss)"));
        bound.add(count(to, "near.cache.gets", tags.and("result", "miss"), cache, s -> s.misses(), "Reads of a key: answered from the copy (hit), or not (miss)"));
        bound.add(count(to, "near.cache.loads", tags.and("result", "success"), cache, s -> s.loads() - s.loadFailures(),
                "Reads of Redis, one round trip each, by result"));
        bound.add(count(to, "near.cache.loads", tags.and("result", "failure"), cache, s -> s.loadFailures(), "Reads of Redis, one round trip each, by result"));
        bound.add(FunctionTimer.builder("near.cache.load.duration", cache, c -> c.statistics().loads(),
                c -> c.statistics().loadTime().toNanos(), TimeUnit.NANOSECONDS).tags(tags).description("Time spent reading Redis").register(to));
        bound.add(count(to, "near.cache.loads.shared", tags, cache, s -> s.shared(), "Misses that joined another read's load of the key"));
        bound.add(count(to, "near.cache.puts.refused", tags, cache, s -> s.refusedPuts(),
                "Values read from Redis and not kept: the key changed meanwhile, or the copy was replaced"));
        bound.add(count(to, "near.cache.evictions", tags.and("cause", "size"), cache, s -> s.evictions(), "Entries removed for the bound in bytes (size) or expired (expired)"));
        bound.add(count(to, "near.cache.evictions", tags.and("cause", "expired"), cache, s -> s.expirations(),
                "Entries removed for the bound in bytes (size) or expired (expired)"));
        bound.add(count(to, "near.cache.invalidations", tags, cache, s -> s.invalidations(), "Keys Redis reported changed"));
        bound.add(Gauge.builder("near.cache.size", cache, NearCache::size).tags(tags).description("Entries in the copy").register(to));
        bound.add(Gauge.builder("near.cache.bytes", cache, NearCache::bytes).tags(tags).baseUnit("bytes")
                .description("The copy's weight, as it counts its bound").register(to));
        meters.put(cache, bound);
    }

    /** A tracked server's own meters, tagged {@code server} with its name: {@code Redis}, or {@code master host:port}. */
    private void bind(TrackedServer server) {
        MeterRegistry to = registry;
        if (to == null || serverMeters.containsKey(server)) {
            return;
        }
        Tags tags = Tags.of("server", server.name());
        List<Meter> bound = new ArrayList<>();
        bound.add(Gauge.builder("near.cache.server.tracking", server, s -> s.isCurrent() ? 1 : 0).tags(tags)
                .description("1 while the server's tracking connection tracks, delivers and answers its heartbeat in time").register(to));
        bound.add(FunctionCounter.builder("near.cache.server.pushes", server, TrackedServer::pushes).tags(tags)
                .description("Push messages received from the server: invalidations, the canaries' included").register(to));
        bound.add(FunctionCounter.builder("near.cache.server.drops", server, TrackedServer::drops).tags(tags)
                .description("Times the server's tracking connection closed or was given up as silent").register(to));
        bound.add(FunctionTimer.builder("near.cache.server.canary", server, TrackedServer::canaries, TrackedServer::canaryNanos, TimeUnit.NANOSECONDS)
                .tags(tags).description("Canaries proven on the server, each from its write to the answer that proved its invalidation arrived")
                .register(to));
        serverMeters.put(server, bound);
    }

    private void unbind(TrackedServer server) {
        List<Meter> bound = serverMeters.remove(server);
        MeterRegistry from = registry;
        if (bound != null && from != null) {
            bound.forEach(from::remove);
        }
    }

    private static Meter count(MeterRegistry registry, String name, Tags tags, NearCache<?> cache,
            ToDoubleFunction<NearCache.Statistics> count, String description) {
        return FunctionCounter.builder(name, cache, c -> count.applyAsDouble(c.statistics())).tags(tags).description(description).register(registry);
    }

    private void unbind(NearCache<?> cache) {
        List<Meter> bound = meters.remove(cache);
        MeterRegistry from = registry;
        if (bound != null && from != null) {
            bound.forEach(from::remove);
        }
    }
}
