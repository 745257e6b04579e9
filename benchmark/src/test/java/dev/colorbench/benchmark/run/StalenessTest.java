package dev.colorbench.benchmark.run;

import java.nio.file.Path;

import dev.colorbench.benchmark.modules.Layout;
import dev.colorbench.benchmark.modules.ModuleCatalog;
import dev.colorbench.benchmark.modules.PatternModule;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StalenessTest {

    @Test
    void anotherWriterChangesTheKeyOfTheModulesLayout() {
        assertThat(Staleness.key(Layout.JSON_STRINGS, "red")).isEqualTo("colors::v3::red");
        assertThat(Staleness.key(Layout.CACHE_STRINGS, "red")).isEqualTo("colors::v1::red");
        assertThatThrownBy(() -> Staleness.key(Layout.PALETTE_HASH, "red")).hasMessageContaining("palette-hash");
    }

    /** A module that keeps a copy is measured after the load: the run must be able to change one of its colors. */
    @Test
    void everyModuleThatKeepsACopyHasAKeyPerColor() {
        for (PatternModule module : ModuleCatalog.read(Path.of("..")).modules()) {
            if (module.nearCache()) {
                assertThat(Staleness.key(module.layout(), "red")).as(module.id()).endsWith("::red");
            }
        }
        assertThat(ModuleCatalog.read(Path.of("..")).modules()).filteredOn(PatternModule::nearCache).extracting(PatternModule::id)
                .contains("near-cache", "redisson-near-cache", "cacheable-near-cache");
    }
}
