package dev.colorbench.benchmark.modules;

import java.util.List;
import java.util.Map;

/**
 * One row of the comparison: a module, as it is or as one of its variants, with the Spring
 * settings it is started with, against the run's Redis, another Redis server, or a Redis Cluster.
 *
 * @param id the module's id, or {@code module+variant}; {@code @cluster} at the end on a Redis Cluster, {@code @<server>} on
 *        another server
 * @param redisCluster whether it reads a Redis Cluster (the run gives it {@code REDIS_CLUSTER_NODES})
 * @param server the server it reads instead of the run's Redis ({@code servers} scenario), or {@code null}
 * @param copy whether the row runs the module's {@code copy/}, the application its README shows, instead of the module
 *        ({@code copies} scenario): no color-core and no actuator, its store given as Spring Boot's own properties (environment variables)
 */
public record Target(String id, PatternModule module, Map<String, String> properties, boolean redisCluster, RedisServer server, boolean copy) {

    /** How a copy's id ends. */
    private static final String COPY = "+copy";

    private static final String ON_A_CLUSTER = "@cluster";

    /** How an A/A twin's id ends: the same module and settings in a JVM of its own (docs/measuring.md#rounds-and-intervals). */
    private static final String TWIN = "+twin";

    public Target {
        properties = Map.copyOf(properties);
    }

    public Target(String id, PatternModule module, Map<String, String> properties, boolean redisCluster, RedisServer server) {
        this(id, module, properties, redisCluster, server, false);
    }

    public Target(String id, PatternModule module, Map<String, String> properties) {
        this(id, module, properties, false, null);
    }

    public Target(String id, PatternModule module, Map<String, String> properties, boolean redisCluster) {
        this(id, module, properties, redisCluster, null);
    }

    /** The module as it is, reading {@code server} instead of the run's Redis. */
    public static Target onServer(PatternModule module, RedisServer server) {
        return new Target(module.id() + "@" + server.key(), module, Map.of(), false, server);
    }

    static Target of(PatternModule module) {
        return new Target(module.id(), module, Map.of());
    }

    /** One of the module's declared {@code colorbench.variants}: the module started with the variant's settings. */
    public static Target of(PatternModule module, Variant variant) {
        return new Target(module.id() + "+" + variant.name(), module, variant.properties());
    }

    /** The module's {@code copy/}, the application its README shows, as a row beside the module. */
    public static Target copyOf(PatternModule module) {
        return new Target(module.id() + COPY, module, Map.of(), false, null, true);
    }

    /** The module as it is, on a Redis Cluster. */
    public static Target onCluster(PatternModule module) {
        return new Target(module.id() + ON_A_CLUSTER, module, Map.of(), true);
    }

    /** One of the module's {@code colorbench.clusterVariants}, on a Redis Cluster. */
    public static Target onCluster(PatternModule module, Variant variant) {
        return new Target(module.id() + "+" + variant.name() + ON_A_CLUSTER, module, variant.properties(), true);
    }

    /** The same row again, in a JVM of its own: its A/A twin, whose figures differ from this row's only by the run's noise. */
    public Target twin() {
        return new Target(id + TWIN, module, properties, redisCluster, server, copy);
    }

    /** The id of the row this one is the A/A twin of, or {@code null} for a row that is not a twin. */
    public String twinOf() {
        return id.endsWith(TWIN) ? id.substring(0, id.length() - TWIN.length()) : null;
    }

    /**
     * {@code targets} with the A/A twin of {@code twin} right after it, when it is one of them; as they are for {@code none}
     * or a row not among them.
     */
    public static List<Target> withTwin(List<Target> targets, String twin) {
        List<Target> rows = new java.util.ArrayList<>();
        for (Target target : targets) {
            rows.add(target);
            if (target.id().equals(twin)) {
                rows.add(target.twin());
            }
        }
        return List.copyOf(rows);
    }

    /** The settings as Spring Boot command-line arguments, in a stable order. */
    public List<String> arguments() {
        return properties.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(setting -> "--" + setting.getKey() + "=" + setting.getValue()).toList();
    }
}
