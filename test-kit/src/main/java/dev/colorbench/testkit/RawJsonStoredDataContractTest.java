package dev.colorbench.testkit;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorKeys;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract's bad values, and what copying bytes adds to it, for a module that copies the stored
 * JSON strings into its answer (the core's {@code RawJsonColors}: mget-raw, mget-floor): a value the
 * byte check does not recognise must go to the codec, never into the array as it is.
 */
@ExtendWith(OutputCaptureExtension.class)
public abstract class RawJsonStoredDataContractTest extends StoredDataContractTest {

    private static final String TOMATO = ColorKeys.jsonKey("tomato");

    private static final String CANONICAL = ColorJson.of(Palette.find("tomato").orElseThrow());

    protected RawJsonStoredDataContractTest() {
        super(ColorKeys::jsonKey, Map.of("mget", 1L));
    }

    @Override
    protected void corrupt(BadValue bad, String key, String name, RedisCommands<String, String> redis) {
        bad.writeInAJsonStringLayout(redis, key, name);
    }

    @AfterEach
    void tomatoAsSeeded() {
        redis().set(TOMATO, CANONICAL);
    }

    /** Spaces, another property order, a property more: readable, so served in the canonical shape, and left as it is. */
    @ParameterizedTest
    @ValueSource(strings = {
            "{ \"name\": \"tomato\", \"hex\": \"#ff6347\", \"red\": 255, \"green\": 99, \"blue\": 71 }",
            "{\"blue\":71,\"green\":99,\"red\":255,\"hex\":\"#ff6347\",\"name\":\"tomato\"}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71,\"alpha\":1}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71}\n" })
    void aReadableValueInAnotherShapeIsServedCanonicallyAndLeftAsItIs(String stored, CapturedOutput output) {
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());
        redis().set(TOMATO, stored);
        int logged = output.getAll().length();

        Map<String, Long> issued = commandsDuring(() -> {
            assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());
            assertThat(get("/colors/tomato").body()).isEqualTo(CANONICAL);
            assertThat(get("/colors?names=tomato,teal").body()).isEqualTo(ColorJson.of(Palette.colors(List.of("tomato", "teal"))));
        });

        assertThat(issued).as("nothing but the reads").isEqualTo(Map.of("mget", 3L));
        assertThat(redis().get(TOMATO)).isEqualTo(stored);
        assertThat(output.getAll().substring(logged)).doesNotContain(" WARN ");
    }

    /** Whatever copying these bytes into the array would do, the answer is the palette, and the key is written again. */
    @ParameterizedTest
    @ValueSource(strings = {
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71},{\"name\":\"intruder\"}",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71}]",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71",
            "{\"name\":\"tomato\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":7}",
            "{\"name\":\"tomato\",\"hex\":\"#FF6347\",\"red\":255,\"green\":99,\"blue\":71}",
            "{\"name\":\"tomato\\\",\\\"x\\\":\\\"\",\"hex\":\"#ff6347\",\"red\":255,\"green\":99,\"blue\":71}",
            "]", "", "null", "[]", "\"tomato\"" })
    void aValueThatWouldBreakTheArrayIfCopiedIsHealed(String stored, CapturedOutput output) {
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());
        redis().set(TOMATO, stored);
        int logged = output.getAll().length();

        HttpResponse<String> response = get("/colors");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(ColorJson.palette());
        assertThat(redis().get(TOMATO)).isEqualTo(CANONICAL);
        assertThat(output.getAll().substring(logged).lines().filter(line -> line.contains(" WARN "))).singleElement().asString()
                .contains(TOMATO);
    }

    /** A consistent color another writer stored is served as stored: the byte check reads the value, not the palette. */
    @ParameterizedTest
    @ValueSource(strings = { "{\"name\":\"tomato\",\"hex\":\"#010203\",\"red\":1,\"green\":2,\"blue\":3}",
            "{ \"name\": \"tomato\", \"hex\": \"#010203\", \"red\": 1, \"green\": 2, \"blue\": 3 }" })
    void aRepaintedColorIsServedAsStored(String stored) {
        String repainted = ColorJson.of(new Color("tomato", "#010203", 1, 2, 3));
        redis().set(TOMATO, stored);

        assertThat(get("/colors/tomato").body()).isEqualTo(repainted);
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette().replace(CANONICAL, repainted));
        assertThat(redis().get(TOMATO)).isEqualTo(stored);
    }
}
