package dev.colorbench.hashhmget;

import java.util.List;
import java.util.Map;

import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.testkit.StoredDataContractTest;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** Every color lives in a field of one key, so each bad value is a bad field, and the wrong type is the whole key. */
@ExtendWith(OutputCaptureExtension.class)
class HashHmgetStoredDataTest extends StoredDataContractTest {

    private static final String KEY = ColorKeys.PALETTE_HASH;

    HashHmgetStoredDataTest() {
        super(name -> KEY, Map.of("hmget", 1L));
    }

    /** Each kind as the field of one color, or, for another type, the key holding a string. */
    @Override
    protected void corrupt(BadValue bad, String key, String name, RedisCommands<String, String> redis) {
        Color color = Palette.find(name).orElseThrow();
        switch (bad) {
            case GARBLED -> redis.hset(key, name, color.hex());
            case WRONG_SHAPE -> redis.hset(key, name, "{\"name\":\"" + name + "\",\"rgb\":[255,99,71]}");
            case ANOTHER_COLOR -> redis.hset(key, name, ColorJson.of(Palette.find("navy").orElseThrow()));
            case WRONG_TYPE -> {
                redis.del(key);
                redis.set(key, ColorJson.of(color));
            }
        }
    }

    @AfterEach
    void everyFieldAsSeeded() {
        redis().del(KEY);
        Palette.all().forEach(color -> redis().hset(KEY, color.name(), ColorJson.of(color)));
    }

    @Test
    void theFieldsOfOneHashHoldTheSameJsonAsTheStringKeys() {
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());

        assertThat(redis().hlen(KEY)).isEqualTo(148);
        for (Color color : Palette.all()) {
            assertThat(redis().hget(KEY, color.name())).isEqualTo(ColorJson.of(color));
        }
    }

    @Test
    void missingFieldsAreWrittenWithOneHsetOfJustThoseFields(CapturedOutput output) {
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());
        Color repainted = new Color("teal", "#010203", 1, 2, 3);
        redis().hset(KEY, "teal", ColorJson.of(repainted));
        redis().hdel(KEY, "tomato", "navy");
        int logged = output.getAll().length();

        Map<String, Long> issued = commandsDuring(() -> assertThat(get("/colors?names=tomato,teal,navy").body())
                .isEqualTo(ColorJson.of(List.of(Palette.find("tomato").orElseThrow(), repainted, Palette.find("navy").orElseThrow()))));

        assertThat(issued).isEqualTo(Map.of("hmget", 1L, "hset", 1L));
        assertThat(redis().hget(KEY, "tomato")).isEqualTo(ColorJson.of(Palette.find("tomato").orElseThrow()));
        assertThat(redis().hget(KEY, "teal")).as("a readable field is left as it is").isEqualTo(ColorJson.of(repainted));
        assertThat(output.getAll().substring(logged)).contains("Writing 2 missing field(s) of colors::v5").doesNotContain(" WARN ");
    }

    @Test
    void aHashGoneIsWrittenWholeWithOneHset() {
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());
        redis().del(KEY);

        Map<String, Long> issued = commandsDuring(() -> assertThat(get("/colors").body()).isEqualTo(ColorJson.palette()));

        assertThat(issued).isEqualTo(Map.of("hmget", 1L, "hset", 1L));
        assertThat(redis().hlen(KEY)).isEqualTo(148);
        assertAFullReadIsServedFromRedisAtTheUsualCost();
    }

    @Test
    void aKeyOfAnotherTypeIsReplacedWhole(CapturedOutput output) {
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());
        redis().del(KEY);
        redis().rpush(KEY, "not", "a", "hash");
        int logged = output.getAll().length();

        Map<String, Long> issued = commandsDuring(() -> assertThat(get("/colors/tomato").body())
                .isEqualTo(ColorJson.of(Palette.find("tomato").orElseThrow())));

        assertThat(issued).isEqualTo(Map.of("hmget", 1L, "del", 1L, "hset", 1L));
        assertThat(redis().type(KEY)).isEqualTo("hash");
        assertThat(redis().hlen(KEY)).isEqualTo(148);
        assertThat(output.getAll().substring(logged).lines().filter(line -> line.contains(" WARN "))).singleElement().asString()
                .contains("Unreadable value at colors::v5:");
        assertAFullReadIsServedFromRedisAtTheUsualCost();
    }

    @Test
    void anUnreadableFieldIsNamedWithItsKey(CapturedOutput output) {
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());
        redis().hset(KEY, "tomato", "#ff6347");
        int logged = output.getAll().length();

        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());

        assertThat(output.getAll().substring(logged).lines().filter(line -> line.contains(" WARN "))).singleElement().asString()
                .contains("Unreadable value at colors::v5 field tomato:");
    }
}
