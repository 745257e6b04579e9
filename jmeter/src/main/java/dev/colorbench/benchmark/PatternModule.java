package dev.colorbench.benchmark;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The applications the benchmark compares, in the order they are loaded, with the port each one
 * listens on by default and what the report says about it. {@code seedTps} is the source post's
 * 2019 figure, measured on another machine, kept only to compare ratios.
 */
enum PatternModule {

    IN_MEMORY("in-memory", 8080, "Palette held in the JVM, no Redis: the ceiling", "MVC", false, null),
    CACHEABLE_LOOP("cacheable-loop", 8081, "@Cacheable findByName called once per color", "MVC", true, 65),
    REDIS_HASH_REPOSITORY("redis-hash-repository", 8082, "@RedisHash entity, CrudRepository.findAll", "MVC", true, 60),
    TEMPLATE_MGET("template-mget", 8083, "RedisTemplate MGET of JSON strings", "MVC", true, 180),
    REACTIVE_MGET("reactive-mget", 8084, "ReactiveRedisOperations MGET, Mono<List<Color>>", "WebFlux", true, 400);

    /** The module every ratio is taken against, as in the source post. */
    static final PatternModule BASELINE = CACHEABLE_LOOP;

    /** The module that shows what the machine can serve without Redis. */
    static final PatternModule CEILING = IN_MEMORY;

    private final String id;

    private final int defaultPort;

    private final String pattern;

    private final String stack;

    private final boolean readsRedis;

    private final Integer seedTps;

    PatternModule(String id, int defaultPort, String pattern, String stack, boolean readsRedis, Integer seedTps) {
        this.id = id;
        this.defaultPort = defaultPort;
        this.pattern = pattern;
        this.stack = stack;
        this.readsRedis = readsRedis;
        this.seedTps = seedTps;
    }

    String id() {
        return id;
    }

    int defaultPort() {
        return defaultPort;
    }

    /** The port during a run: the default ports shifted together when {@code benchmark.basePort} moves them. */
    int port(int basePort) {
        return basePort + (defaultPort - IN_MEMORY.defaultPort);
    }

    String pattern() {
        return pattern;
    }

    String stack() {
        return stack;
    }

    boolean readsRedis() {
        return readsRedis;
    }

    Optional<Integer> seedTps() {
        return Optional.ofNullable(seedTps);
    }

    static PatternModule byId(String id) {
        return Arrays.stream(values())
                .filter(module -> module.id.equals(id.trim()))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Unknown module '" + id + "'; known: " + ids(List.of(values()))));
    }

    static String ids(List<PatternModule> modules) {
        return String.join(",", modules.stream().map(PatternModule::id).toList());
    }
}
