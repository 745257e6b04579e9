package dev.colorbench.benchmark.modules;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.maven.model.Model;
import org.apache.maven.model.io.xpp3.MavenXpp3Reader;
import org.codehaus.plexus.util.xml.pull.XmlPullParserException;

/**
 * Every module of {@code modules/pom.xml}, in its order, each described by the {@code colorbench.*}
 * properties of its own pom over the defaults of {@code modules/pom.xml}. Nothing else lists them.
 */
public final class ModuleCatalog {

    private static final String PREFIX = "colorbench.";

    private final List<PatternModule> modules;

    private ModuleCatalog(List<PatternModule> modules) {
        this.modules = List.copyOf(modules);
    }

    public static ModuleCatalog read(Path repositoryRoot) {
        Path modulesDirectory = repositoryRoot.resolve("modules");
        Model parent = model(modulesDirectory.resolve("pom.xml"));
        List<PatternModule> modules = new ArrayList<>();
        for (String folder : parent.getModules()) {
            Model module = model(modulesDirectory.resolve(folder).resolve("pom.xml"));
            if (!folder.equals(module.getArtifactId())) {
                throw new IllegalStateException("modules/" + folder + " has the artifactId " + module.getArtifactId()
                        + ": a module's folder and artifactId are its one id");
            }
            Properties described = new Properties();
            described.putAll(parent.getProperties());
            described.putAll(module.getProperties());
            modules.add(describe(folder, module.getDescription(), described));
        }
        return new ModuleCatalog(modules);
    }

    private static PatternModule describe(String id, String pattern, Properties properties) {
        String sourcePostTps = setting(id, properties, "sourcePostTps");
        return new PatternModule(id, pattern, Integer.parseInt(setting(id, properties, "port")), setting(id, properties, "stack"),
                Role.of(setting(id, properties, "role")), Store.of(setting(id, properties, "store")),
                sourcePostTps.equals("none") ? null : Integer.valueOf(sourcePostTps),
                Boolean.parseBoolean(setting(id, properties, "nearCache")), Layout.of(setting(id, properties, "layout")),
                optional(id, properties, "knownStale"), optional(id, properties, "tuning"),
                Variant.parse(setting(id, properties, "variants")), Variant.parse(setting(id, properties, "clusterVariants")));
    }

    /** A setting whose value {@code none} means there is none. */
    private static String optional(String id, Properties properties, String name) {
        String value = setting(id, properties, name);
        return value.equals("none") ? null : value;
    }

    private static String setting(String id, Properties properties, String name) {
        String value = properties.getProperty(PREFIX + name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("modules/" + id + " declares no " + PREFIX + name + " (see modules/pom.xml)");
        }
        return value.trim();
    }

    public List<PatternModule> modules() {
        return modules;
    }

    /**
     * The rows to run: every module and its declared variants when {@code ids} is empty (but those
     * marked {@code (when named)}), otherwise exactly those ids ({@code module} or {@code module+variant}), in that order.
     */
    public List<Target> targets(List<String> ids) {
        return targets("benchmark.modules", ids);
    }

    /** The same, naming {@code knob} as where an unknown id came from. */
    public List<Target> targets(String knob, List<String> ids) {
        Map<String, Target> all = new LinkedHashMap<>();
        List<Target> unnamed = new ArrayList<>();
        for (PatternModule module : modules) {
            all.put(module.id(), Target.of(module));
            unnamed.add(Target.of(module));
            for (Variant variant : module.variants()) {
                all.put(Target.of(module, variant).id(), Target.of(module, variant));
                if (!variant.whenNamed()) {
                    unnamed.add(Target.of(module, variant));
                }
            }
        }
        if (ids.isEmpty()) {
            return List.copyOf(unnamed);
        }
        return ids.stream().distinct().map(id -> {
            Target target = all.get(id);
            if (target == null) {
                throw new IllegalArgumentException("Unknown module '" + id + "' in " + knob + "; known: " + String.join(",", all.keySet()));
            }
            return target;
        }).toList();
    }

    private static Model model(Path pom) {
        try (Reader reader = Files.newBufferedReader(pom)) {
            return new MavenXpp3Reader().read(reader);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot read " + pom, ex);
        }
        catch (XmlPullParserException ex) {
            throw new IllegalStateException("Cannot parse " + pom, ex);
        }
    }
}
