package dev.colorbench.benchmark.stack;

import java.util.List;

import dev.colorbench.benchmark.modules.ModuleCatalog;
import dev.colorbench.benchmark.modules.PatternModule;
import dev.colorbench.benchmark.modules.Target;

/**
 * The modules the stack starts: those {@code benchmark.modules} names, in that order, or every module
 * of {@code modules/pom.xml}. Modules as they are only: a variant is its module with other settings,
 * so it would need its module's README port, and nothing that loads the README's ports would tell the two apart.
 */
final class ModuleSelection {

    private ModuleSelection() {
    }

    static List<Target> chosen(ModuleCatalog catalog, List<String> ids) {
        List<String> named = ids.isEmpty() ? catalog.modules().stream().map(PatternModule::id).toList() : ids;
        List<Target> targets = catalog.targets(named);
        for (Target target : targets) {
            if (!target.id().equals(target.module().id())) {
                throw new IllegalArgumentException("benchmark.modules names the variant '" + target.id() + "': the stack starts modules as they are, "
                        + "each on its README port, and " + target.module().id() + " has " + target.module().port()
                        + "; name " + target.module().id() + " instead, or measure the variant with ./mvnw -Pbenchmark verify");
            }
        }
        return targets;
    }
}
