package dev.colorbench.core.palette;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import dev.colorbench.core.redis.JsonKeys;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ColorJsonTest {

    @Test
    void thePaletteIsTheCss4NamedColors() {
        assertThat(Palette.all()).hasSize(148);
        assertThat(Palette.names()).isSorted().doesNotHaveDuplicates();
        assertThat(Palette.find("rebeccapurple")).contains(new Color("rebeccapurple", "#663399", 102, 51, 153));
        assertThat(Palette.find("Red")).isEmpty();
    }

    @Test
    void theCanonicalJsonMatchesTheIndependentlyWrittenGoldenFile() throws IOException {
        try (InputStream golden = getClass().getResourceAsStream("/palette.json")) {
            assertThat(ColorJson.palette() + "\n").isEqualTo(new String(golden.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void jsonKeysStayInsideTheNamespace() {
        assertThat(JsonKeys.plain().all()).hasSize(148).allSatisfy(key -> assertThat(key).matches("colors::v3::[a-z]+"));
    }
}
