package dev.colorbench.benchmark.stack;

import java.nio.file.Path;
import java.util.List;

import dev.colorbench.benchmark.modules.ModuleCatalog;
import dev.colorbench.benchmark.modules.PatternModule;
import dev.colorbench.benchmark.modules.Target;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The stack starts every module of the repository, or those named, each as it is: never a variant, which would need its module's port. */
class ModuleSelectionTest {

    private final ModuleCatalog catalog = ModuleCatalog.read(Path.of(".."));

    @Test
    void everyModuleAndNoVariantByDefault() {
        List<Target> chosen = ModuleSelection.chosen(catalog, List.of());

        assertThat(chosen).extracting(Target::id).containsExactlyElementsOf(catalog.modules().stream().map(PatternModule::id).toList());
        assertThat(chosen).allMatch(target -> target.properties().isEmpty() && !target.redisCluster());
    }

    @Test
    void theNamedModulesInTheirOrder() {
        assertThat(ModuleSelection.chosen(catalog, List.of("template-mget", "in-memory"))).extracting(Target::id)
                .containsExactly("template-mget", "in-memory");
    }

    @Test
    void aVariantIsRefusedNamingItsModuleAndPort() {
        PatternModule withAVariant = catalog.modules().stream().filter(module -> !module.variants().isEmpty()).findFirst().orElseThrow();
        String variant = withAVariant.id() + "+" + withAVariant.variants().get(0).name();

        assertThatThrownBy(() -> ModuleSelection.chosen(catalog, List.of("in-memory", variant)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("variant '" + variant + "'")
                .hasMessageContaining("name " + withAVariant.id() + " instead")
                .hasMessageContaining(String.valueOf(withAVariant.port()));
    }

    @Test
    void anUnknownModuleIsRefusedNamingTheKnob() {
        assertThatThrownBy(() -> ModuleSelection.chosen(catalog, List.of("no-such-module")))
                .hasMessageContaining("Unknown module 'no-such-module' in benchmark.modules");
    }
}
