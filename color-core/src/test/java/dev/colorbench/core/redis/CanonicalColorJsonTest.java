package dev.colorbench.core.redis;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** The byte check recognises exactly the codec's own JSON of a consistent color under its key's name. */
class CanonicalColorJsonTest {

    /** Lenient as Spring Boot's mapper is: unknown properties ignored. */
    private static final ColorCodec CODEC = new ColorCodec(JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build());

    private static final byte[] TOMATO_HEAD = CanonicalColorJson.head("tomato");

    @Test
    void recognisesEveryPaletteColorAsTheCodecWritesIt() {
        for (Color color : Palette.all()) {
            assertThat(CanonicalColorJson.isCanonical(CanonicalColorJson.head(color.name()), CODEC.encode(color))).as(color.name()).isTrue();
        }
    }

    @Test
    void recognisesAConsistentColorThatIsNotThePalettes() {
        assertThat(canonical("{\"name\":\"tomato\",\"hex\":\"#000000\",\"red\":0,\"green\":0,\"blue\":0}")).isTrue();
        assertThat(canonical("{\"name\":\"tomato\",\"hex\":\"#0a6400\",\"red\":10,\"green\":100,\"blue\":0}")).isTrue();
    }

    @Test
    void recognisesAPaddingOfLowerCaseLetters() {
        assertThat(canonical("{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71,\"padding\":\"tomatotom\"}")).isTrue();
        assertThat(canonical("{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71,\"padding\":\"\"}")).isTrue();
        for (Color color : Palette.of(Palette.NAMED, 1024)) {
            byte[] json = CODEC.encode(color);
            byte[] head = CanonicalColorJson.head(color.name());
            assertThat(CanonicalColorJson.isCanonical(head, json)).as(color.name()).isTrue();
            assertThat(CanonicalColorJson.isCanonical(head, json, CanonicalColorJson.tail(color.padding()))).as(color.name()).isTrue();
            assertThat(CanonicalColorJson.isCanonical(head, json, CanonicalColorJson.tail(null))).as(color.name()).isFalse();
            assertThat(CanonicalColorJson.isCanonical(head, json, CanonicalColorJson.tail(color.padding() + "x"))).as(color.name()).isFalse();
            assertThat(CanonicalColorJson.isCanonical(head, CODEC.encode(color.withPadding(null)), CanonicalColorJson.tail(color.padding())))
                    .as(color.name()).isFalse();
        }
    }

    @Test
    void theTailOfNoPaddingRecognisesWhatTheShapeAloneDoes() {
        for (Color color : Palette.all()) {
            assertThat(CanonicalColorJson.isCanonical(CanonicalColorJson.head(color.name()), CODEC.encode(color), CanonicalColorJson.tail(null)))
                    .as(color.name()).isTrue();
        }
        byte[] tail = CanonicalColorJson.tail(null);
        for (String json : List.of("{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":72}",
                "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71} ",
                "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71,\"padding\":\"a\"}")) {
            assertThat(CanonicalColorJson.isCanonical(TOMATO_HEAD, json.getBytes(StandardCharsets.UTF_8), tail)).as(json).isFalse();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71,\"padding\":\"tom\"ato\"}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71,\"padding\":\"tom\\\\ato\"}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71,\"padding\":\"tom\\\"ato\"}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71,\"padding\":\"tomAto\"}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71,\"padding\":\"tom4to\"}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71,\"padding\":\"tom ato\"}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71,\"padding\":\"tomato\u00e9\"}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71,\"padding\":\"tomato\"",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71,\"padding\":\"tomato}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71,\"padding\":tomato}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71,\"padding\":\"tomato\"} ",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71,\"paddin\":\"tomato\"}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71,\"alpha\":\"tomato\"}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71,}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":72,\"padding\":\"tomato\"}" })
    void aPaddingOfAnythingButLowerCaseLettersIsNotCanonical(String json) {
        assertThat(canonical(json)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "{}", "null", "#ff6347",
            "{\"name\":\"navy\",\"hex\":\"#000080\",\"red\":0,\"green\":0,\"blue\":128}",
            "{\"name\":\"tomatoes\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71}",
            "{\"name\":\"tomato\",\"hex\":\"#FF6347\",\"red\":255,\"green\":99,\"blue\":71}",
            "{\"name\":\"tomato\",\"hex\":\"#ff634\",\"red\":255,\"green\":99,\"blue\":71}",
            "{\"name\":\"tomato\",\"hex\":\"#ff63477\",\"red\":255,\"green\":99,\"blue\":71}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":72}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":099,\"blue\":71}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71.0}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71} ",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71},{}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71]",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"green\":99,\"red\":255,\"blue\":71}",
            "{\"name\": \"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71}" })
    void doesNotRecogniseAnythingElse(String json) {
        assertThat(canonical(json)).isFalse();
    }

    /**
     * Whatever a value becomes by bytes changed, inserted or removed: if the check recognises it, the
     * codec reads it as a color of the key's name and would write exactly those bytes. So what is
     * copied into the answer is always what the codec would have served.
     */
    @Test
    void whatItRecognisesIsAlwaysWhatTheCodecWouldServe() {
        byte[] tomato = ColorJson.of(Palette.find("tomato").orElseThrow()).getBytes(StandardCharsets.UTF_8);
        byte[] alphabet = "0123456789abcdefABCDEF{}[]\",: .-#tomredgnblux\\".getBytes(StandardCharsets.US_ASCII);
        Random random = new Random(20261122);
        int recognised = 0;
        for (int i = 0; i < 200_000; i++) {
            byte[] mutated = mutate(tomato, random, alphabet, 1 + random.nextInt(3));
            if (CanonicalColorJson.isCanonical(TOMATO_HEAD, mutated)) {
                recognised++;
                Optional<Color> decoded = CODEC.decode("tomato", mutated);
                assertThat(decoded).as(new String(mutated, StandardCharsets.UTF_8)).isPresent();
                assertThat(CODEC.encode(decoded.get())).as(new String(mutated, StandardCharsets.UTF_8)).isEqualTo(mutated);
            }
        }
        assertThat(recognised).as("mutations still canonical (the original, and equal swaps)").isPositive();
    }

    private static byte[] mutate(byte[] original, Random random, byte[] alphabet, int edits) {
        byte[] value = original.clone();
        for (int e = 0; e < edits; e++) {
            int at = random.nextInt(value.length + 1);
            byte b = alphabet[random.nextInt(alphabet.length)];
            switch (random.nextInt(3)) {
                case 0 -> {
                    if (at < value.length) {
                        value[at] = b;
                    }
                }
                case 1 -> {
                    byte[] longer = new byte[value.length + 1];
                    System.arraycopy(value, 0, longer, 0, at);
                    longer[at] = b;
                    System.arraycopy(value, at, longer, at + 1, value.length - at);
                    value = longer;
                }
                default -> {
                    if (at < value.length) {
                        byte[] shorter = new byte[value.length - 1];
                        System.arraycopy(value, 0, shorter, 0, at);
                        System.arraycopy(value, at + 1, shorter, at, value.length - at - 1);
                        value = shorter;
                    }
                }
            }
        }
        return Arrays.copyOf(value, value.length);
    }

    private static boolean canonical(String json) {
        return CanonicalColorJson.isCanonical(TOMATO_HEAD, json.getBytes(StandardCharsets.UTF_8));
    }
}
