package dev.colorbench.core.palette;

import java.util.HashSet;
import java.util.List;

import dev.colorbench.core.redis.ColorCodec;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PaletteSizeTest {

    @Test
    void fewerColorsAreTheFirstNamedOnes() {
        assertThat(Palette.sized(10)).containsExactlyElementsOf(Palette.all().subList(0, 10));
        assertThat(Palette.sized(Palette.NAMED)).containsExactlyElementsOf(Palette.all());
    }

    @Test
    void moreColorsAreTheNamedOnesThenGeneratedOnesTheContractAccepts() {
        List<Color> colors = Palette.sized(10_000);

        assertThat(colors).hasSize(10_000).startsWith(Palette.all().toArray(Color[]::new));
        assertThat(new HashSet<>(colors.stream().map(Color::name).toList())).hasSize(10_000);
        assertThat(colors.subList(Palette.NAMED, colors.size())).allSatisfy(color -> {
            assertThat(color.name()).matches("xc[a-z]{4}");
            assertThat(ColorCodec.isReadable(color.name(), color)).isTrue();
        });
        assertThat(colors.get(Palette.NAMED).name()).isEqualTo("xcaaaa");
        assertThat(ColorJson.of(colors.subList(Palette.NAMED, Palette.NAMED + 1))).startsWith("[{\"name\":\"xcaaaa\",\"hex\":\"#");
        assertThat(Palette.sized(1_000)).isEqualTo(Palette.sized(1_000));
    }

    @Test
    void aPaletteHasColors() {
        assertThatThrownBy(() -> Palette.sized(0)).hasMessageContaining("at least one");
    }
}
