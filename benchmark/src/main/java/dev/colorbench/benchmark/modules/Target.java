package dev.colorbench.benchmark.modules;

import java.util.List;
import java.util.Map;

/**
 * One row of the comparison: a module, as it is or as one of its variants, with the Spring
 * settings it is started with.
 *
 * @param id the module's id, or {@code module+variant}
 */
public record Target(String id, PatternModule module, Map<String, String> properties) {

    public Target {
        properties = Map.copyOf(properties);
    }

    static Target of(PatternModule module) {
        return new Target(module.id(), module, Map.of());
    }

    static Target of(PatternModule module, Variant variant) {
        return new Target(module.id() + "+" + variant.name(), module, variant.properties());
    }

    /** The settings as Spring Boot command-line arguments, in a stable order. */
    public List<String> arguments() {
        return properties.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(setting -> "--" + setting.getKey() + "=" + setting.getValue()).toList();
    }
}
