package dev.colorbench.benchmark.modules;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The same module started with other Spring settings, as a row of its own: declared in the
 * module's pom as {@code colorbench.variants}, e.g. {@code objects (stock): colorbench.render=objects; ...}.
 *
 * @param stock whether the settings put back what a stock Spring Boot application does where the module tunes it
 *        ({@code (stock)} after the name), so that the report marks the row as the stock beside the tuned one
 * @param whenNamed whether only a run that names the row ({@code -Dbenchmark.modules}) measures it, not the default full
 *        run ({@code (when named)} after the name): a row whose difference from its module shows only in another
 *        condition, so that it would cost every full run its minute and a half without showing anything there
 */
public record Variant(String name, Map<String, String> properties, boolean stock, boolean whenNamed) {

    private static final String STOCK = "stock";

    private static final String WHEN_NAMED = "when named";

    public Variant {
        properties = Map.copyOf(properties);
    }

    public Variant(String name, Map<String, String> properties, boolean stock) {
        this(name, properties, stock, false);
    }

    public Variant(String name, Map<String, String> properties) {
        this(name, properties, false);
    }

    /**
     * Parses {@code name: key=value key=value; name (stock): ...; name (stock, when named): ...}; {@code none} or blank
     * declares none.
     */
    static List<Variant> parse(String declaration) {
        if (declaration == null || declaration.isBlank() || declaration.trim().equals("none")) {
            return List.of();
        }
        return Arrays.stream(declaration.split(";")).map(String::trim).filter(part -> !part.isEmpty()).map(part -> {
            int colon = part.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("A variant is 'name: key=value ...', got '" + part + "'");
            }
            Map<String, String> properties = new LinkedHashMap<>();
            for (String setting : part.substring(colon + 1).trim().split("\\s+")) {
                int equals = setting.indexOf('=');
                if (equals <= 0) {
                    throw new IllegalArgumentException("A variant setting is key=value, got '" + setting + "' in '" + part + "'");
                }
                properties.put(setting.substring(0, equals), setting.substring(equals + 1));
            }
            String name = part.substring(0, colon).trim();
            List<String> marks = List.of();
            int open = name.indexOf('(');
            if (open > 0 && name.endsWith(")")) {
                marks = Arrays.stream(name.substring(open + 1, name.length() - 1).split(",")).map(String::trim).toList();
                name = name.substring(0, open).trim();
            }
            for (String mark : marks) {
                if (!mark.equals(STOCK) && !mark.equals(WHEN_NAMED)) {
                    throw new IllegalArgumentException("A variant is marked (" + STOCK + "), (" + WHEN_NAMED + ") or both, got '" + mark + "' in '" + part + "'");
                }
            }
            return new Variant(name, properties, marks.contains(STOCK), marks.contains(WHEN_NAMED));
        }).toList();
    }
}
