package dev.colorbench.core.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class ColorCodecTest {

    /** Lenient as Spring Boot's mapper is: unknown properties ignored. */
    private final ColorCodec codec = new ColorCodec(JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build());

    private static final Color TOMATO = Palette.find("tomato").orElseThrow();

    @Test
    void encodesTheCanonicalJsonAndDecodesItBack() {
        byte[] json = codec.encode(TOMATO);

        assertThat(new String(json, StandardCharsets.UTF_8)).isEqualTo(ColorJson.of(TOMATO));
        assertThat(codec.decode("tomato", json)).contains(TOMATO);
        assertThat(codec.decode("tomato", ColorJson.of(TOMATO))).contains(TOMATO);
    }

    @Test
    void aConsistentColorThatDiffersFromThePaletteIsReadable() {
        Color repainted = new Color("tomato", "#010203", 1, 2, 3);

        assertThat(codec.decode("tomato", ColorJson.of(repainted))).contains(repainted);
    }

    @ParameterizedTest
    @ValueSource(strings = { "#ff6347", "", "null", "[]", "\"tomato\"", "{}", "{\"name\":\"tomato\",\"rgb\":[255,99,71]}",
            "{\"name\":\"navy\",\"hex\":\"#000080\",\"red\":0,\"green\":0,\"blue\":128}",
            "{\"name\":\"Tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71}",
            "{\"name\":\"tomato\",\"hex\":\"#FF6347\",\"red\":255,\"green\":99,\"blue\":71}",
            "{\"name\":\"tomato\",\"hex\":\"ff6347\",\"red\":255,\"green\":99,\"blue\":71}",
            "{\"name\":\"tomato\",\"hex\":\"#ff634\",\"red\":255,\"green\":99,\"blue\":71}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":72}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":511,\"green\":99,\"blue\":71}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":-1,\"green\":99,\"blue\":71}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99}",
            "{\"name\":null,\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71} trailing" })
    void whatIsNotAConsistentColorOfTheKeysNameIsUnreadable(String stored) {
        assertThat(codec.decode("tomato", stored)).isEmpty();
        assertThat(codec.decode("tomato", stored.getBytes(StandardCharsets.UTF_8))).isEmpty();
    }

    @Test
    void decodingManyTellsMissingFromUnreadableOnceEachAndNeverAnswersPartially() {
        List<String> names = List.of("teal", "tomato", "navy", "tomato", "red");
        List<Object> values = Arrays.asList(ColorJson.of(Palette.find("teal").orElseThrow()).getBytes(StandardCharsets.UTF_8), "garbage",
                null, "garbage", ColorJson.of(Palette.find("red").orElseThrow()));

        StoredColors stored = codec.decodeAll(names, values);

        assertThat(stored.colors()).isEqualTo(Palette.colors(names));
        assertThat(stored.missing()).containsExactly("navy");
        assertThat(stored.unreadable()).containsExactly("tomato");
        assertThat(stored.toWrite()).containsExactly("navy", "tomato");
        assertThat(stored.complete()).isFalse();
    }

    @Test
    void aReadOfReadableValuesIsComplete() {
        StoredColors stored = codec.decodeAll(Palette.names(), Palette.all().stream().map(codec::encode).toList());

        assertThat(stored.complete()).isTrue();
        assertThat(stored.colors()).isEqualTo(Palette.all());
    }

    @Test
    void encodingManyKeysEachColorByName() {
        assertThat(codec.encodeAll(Palette.all(), ColorKeys::jsonKey)).hasSize(148).containsOnlyKeys(JsonKeys.plain().all())
                .hasEntrySatisfying("colors::v3::tomato", json -> assertThat(codec.decode("tomato", json)).contains(TOMATO));
    }

    @Test
    void isReadableChecksWhatSpringMappedToo() {
        assertThat(ColorCodec.isReadable("tomato", TOMATO)).isTrue();
        assertThat(ColorCodec.isReadable("navy", TOMATO)).isFalse();
        assertThat(ColorCodec.isReadable("tomato", new Color("tomato", null, 255, 99, 71))).isFalse();
        assertThat(ColorCodec.isReadable("tomato", null)).isFalse();
        assertThat(ColorCodec.isReadable(null, TOMATO)).isFalse();
    }

    @Test
    void aPaletteIsReadableWholeInCanonicalOrderAndWithEveryColorReadable() {
        List<Color> repainted = new ArrayList<>(Palette.all());
        repainted.set(Palette.names().indexOf("tomato"), new Color("tomato", "#010203", 1, 2, 3));

        assertThat(ColorCodec.isReadablePalette(Palette.all())).isTrue();
        assertThat(ColorCodec.isReadablePalette(repainted)).as("consistent colors that differ from the palette").isTrue();
    }

    @Test
    void aPaletteThatIsPartialReorderedOrHasOneBadColorIsUnreadable() {
        List<Color> reordered = new ArrayList<>(Palette.all());
        Collections.swap(reordered, 0, 1);
        List<Color> anotherColor = new ArrayList<>(Palette.all());
        anotherColor.set(Palette.names().indexOf("tomato"), Palette.find("navy").orElseThrow());
        List<Color> withNull = new ArrayList<>(Palette.all());
        withNull.set(3, null);
        List<Color> longer = new ArrayList<>(Palette.all());
        longer.add(TOMATO);

        assertThat(ColorCodec.isReadablePalette(Palette.all().subList(0, 147))).isFalse();
        assertThat(ColorCodec.isReadablePalette(longer)).isFalse();
        assertThat(ColorCodec.isReadablePalette(reordered)).isFalse();
        assertThat(ColorCodec.isReadablePalette(anotherColor)).isFalse();
        assertThat(ColorCodec.isReadablePalette(withNull)).isFalse();
        assertThat(ColorCodec.isReadablePalette(List.of())).isFalse();
        assertThat(ColorCodec.isReadablePalette(TOMATO)).isFalse();
        assertThat(ColorCodec.isReadablePalette(null)).isFalse();
    }
}
