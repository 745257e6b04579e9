package dev.colorbench.benchmark.modules;

import java.util.List;
import java.util.Map;

/**
 * One row of the comparison: a module, as it is or as one of its variants, with the Spring
 * settings it is started with, against one Redis server or a Redis Cluster.
 *
 * @param id the module's id, or {@code module+variant}; {@code @cluster} at the end on a Redis Cluster
 * @param redisCluster whether it reads a Redis Cluster (the run gives it {@code REDIS_CLUSTER_NODES})
 */
public record Target(String id, PatternModule module, Map<String, String> properties, boolean redisCluster) {

    private static final String ON_A_CLUSTER = "@cluster";

    public Target {
        properties = Map.copyOf(properties);
    }

    public Target(String id, PatternModule module, Map<String, String> properties) {
        this(id, module, properties, false);
    }

    static Target of(PatternModule module) {
        return new Target(module.id(), module, Map.of());
    }

    static Target of(PatternModule module, Variant variant) {
        return new Target(module.id() + "+" + variant.name(), module, variant.properties());
    }

    /** The module as it is, on a Redis Cluster. */
    public static Target onCluster(PatternModule module) {
        return new Target(module.id() + ON_A_CLUSTER, module, Map.of(), true);
    }

    /** One of the module's {@code colorbench.clusterVariants}, on a Redis Cluster. */
    public static Target onCluster(PatternModule module, Variant variant) {
        return new Target(module.id() + "+" + variant.name() + ON_A_CLUSTER, module, variant.properties(), true);
    }

    /** The settings as Spring Boot command-line arguments, in a stable order. */
    public List<String> arguments() {
        return properties.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(setting -> "--" + setting.getKey() + "=" + setting.getValue()).toList();
    }
}
