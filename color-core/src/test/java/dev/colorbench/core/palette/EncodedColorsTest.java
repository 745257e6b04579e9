package dev.colorbench.core.palette;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EncodedColorsTest {

    private static byte[] json(Color color) {
        return ColorJson.of(color).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void joinsEncodedColorsIntoTheCanonicalArray() {
        byte[] palette = EncodedColors.array(Palette.all().stream().map(EncodedColorsTest::json).toList());

        assertThat(new String(palette, StandardCharsets.UTF_8)).isEqualTo(ColorJson.palette());
    }

    @Test
    void keepsTheOrderAndDuplicatesOfASubset() {
        List<Color> colors = Palette.colors(List.of("tomato", "teal", "tomato"));

        byte[] array = EncodedColors.array(colors.stream().map(EncodedColorsTest::json).toList());

        assertThat(new String(array, StandardCharsets.UTF_8)).isEqualTo(ColorJson.of(colors));
    }

    @Test
    void noElementsIsAnEmptyArray() {
        assertThat(new String(EncodedColors.array(List.of()), StandardCharsets.UTF_8)).isEqualTo("[]");
    }
}
