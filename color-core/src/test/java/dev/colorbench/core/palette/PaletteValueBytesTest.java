package dev.colorbench.core.palette;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.colorbench.core.redis.ColorCodec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The palette padded to a value size: every color's JSON exactly that many bytes, the default palette untouched. */
class PaletteValueBytesTest {

    @ParameterizedTest
    @ValueSource(ints = { Palette.MIN_VALUE_BYTES, 1024, 16 * 1024 })
    void everyColorsJsonIsExactlyTheBytesAsked(int valueBytes) {
        List<Color> colors = Palette.of(1_000, valueBytes);

        assertThat(colors).hasSize(1_000).allSatisfy(color -> {
            assertThat(ColorJson.of(color).getBytes(StandardCharsets.UTF_8)).as(color.name()).hasSize(valueBytes);
            assertThat(color.padding()).matches("[a-z]+").startsWith(color.name());
        });
        assertThat(colors.stream().map(color -> color.withPadding(null)).toList()).isEqualTo(Palette.sized(1_000));
        assertThat(Palette.of(1_000, valueBytes)).as("deterministic").isEqualTo(colors);
    }

    @Test
    void unpaddedIsThePaletteAsItWas() {
        assertThat(Palette.of(Palette.NAMED, null)).isEqualTo(Palette.sized(Palette.NAMED)).isEqualTo(Palette.all());
        assertThat(Palette.all()).allSatisfy(color -> assertThat(color.padding()).isNull());
        assertThat(Palette.valueBytes()).isEmpty();
        assertThat(ColorJson.of(Palette.find("tomato").orElseThrow())).isEqualTo("{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71}");
    }

    @Test
    void theLengthCountedIsTheLengthWritten() {
        assertThat(Palette.sized(Palette.MAX_SIZE)).allSatisfy(color -> assertThat(Palette.unpaddedLength(color)).isEqualTo(ColorJson.of(color).length()));
        assertThat(Palette.sized(Palette.MAX_SIZE)).hasSize(Palette.MAX_SIZE);
    }

    @Test
    void jacksonReadsAColorWithAndWithoutPadding() {
        JsonMapper strict = JsonMapper.builder().build();
        JsonMapper lenient = JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
        for (JsonMapper mapper : List.of(strict, lenient)) {
            assertThat(mapper.readValue("{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71}", Color.class))
                    .isEqualTo(new Color("tomato", "#ff6347", 255, 99, 71));
            assertThat(mapper.readValue("{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71,\"padding\":\"tom\"}", Color.class))
                    .isEqualTo(new Color("tomato", "#ff6347", 255, 99, 71, "tom"));
            Color padded = Palette.of(Palette.NAMED, 512).get(3);
            assertThat(mapper.readValue(mapper.writeValueAsString(padded), Color.class)).isEqualTo(padded);
            List<Color> read = mapper.readerForListOf(Color.class).readValue(ColorJson.of(Palette.of(10, 256)));
            assertThat(read).isEqualTo(Palette.of(10, 256));
        }
    }

    @Test
    void aPaddedColorIsNotReadableUnderAnUnpaddedPalette() {
        Color tomato = Palette.find("tomato").orElseThrow();

        assertThat(ColorCodec.isReadable("tomato", tomato)).isTrue();
        assertThat(ColorCodec.isReadable("tomato", tomato.withPadding("tomato"))).isFalse();
    }

    @Test
    void checkNamesTheAllowedRange() {
        assertThatThrownBy(() -> Palette.check(0, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("colorbench.palette.size=0 is out of range").hasMessageContaining("457,124");
        assertThatThrownBy(() -> Palette.of(Palette.MAX_SIZE + 1, null)).hasMessageContaining("at most 457,124");
        assertThatThrownBy(() -> Palette.check(Palette.NAMED, 64)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("colorbench.palette.value-bytes=64 is out of range: a stored value is 128 to 1,048,576 bytes (unset: the colors' own 59 to 80 bytes)");
        assertThatThrownBy(() -> Palette.check(Palette.NAMED, Palette.MAX_VALUE_BYTES + 1)).hasMessageContaining("128 to 1,048,576 bytes");
        assertThatThrownBy(() -> Palette.check(10_000, 16 * 1024)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("67,108,864 bytes together").hasMessageContaining("10,000 colors are at most 6,710 bytes each");
        Palette.check(64, Palette.MAX_VALUE_BYTES);
        assertThatThrownBy(() -> Palette.check(Palette.NAMED, Palette.MAX_VALUE_BYTES)).hasMessageContaining("148 colors are at most 453,438 bytes each");
        Palette.check(Palette.MAX_SIZE, null);
        assertThat(Palette.MAX_SIZE).isEqualTo(148 + 26 * 26 * 26 * 26);
    }
}
