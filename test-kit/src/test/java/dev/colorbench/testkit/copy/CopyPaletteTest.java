package dev.colorbench.testkit.copy;

import dev.colorbench.core.palette.ColorJson;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The copies' oracle is the modules' one: the kit's palette.json is color-core's palette, byte for byte. */
class CopyPaletteTest {

    @Test
    void theCopiesPaletteIsTheModulesPalette() {
        assertThat(CopyHttp.palette()).isEqualTo(ColorJson.palette());
    }
}
