package dev.colorbench.hashrepository;

import java.util.Map;

import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.testkit.StoredDataContractTest;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

class RedisHashRepositoryStoredDataTest extends StoredDataContractTest {

    RedisHashRepositoryStoredDataTest() {
        super(ColorKeys::hashKey, Map.of("smembers", 1L, "hgetall", 148L), ColorKeys.HASH_KEYSPACE);
    }

    /** Each kind as a hash: a field that is not a number, no color fields, navy's fields, or a JSON string. */
    @Override
    protected void corrupt(BadValue bad, String key, String name, RedisCommands<String, String> redis) {
        Color color = Palette.find(name).orElseThrow();
        Color navy = Palette.find("navy").orElseThrow();
        redis.del(key);
        switch (bad) {
            case GARBLED -> redis.hset(key, Map.of("name", name, "hex", color.hex(), "red", "lots", "green", "99", "blue", "71"));
            case WRONG_SHAPE -> redis.hset(key, Map.of("colour", name));
            case ANOTHER_COLOR -> redis.hset(key, Map.of("name", navy.name(), "hex", navy.hex(), "red", "0", "green", "0", "blue", "128"));
            case WRONG_TYPE -> redis.set(key, ColorJson.of(color));
        }
    }

    /** This layout's own key beyond the hashes: SMEMBERS fails on it, and SADD would too. */
    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void anIdSetOfAnotherTypeIsDeletedAndWrittenAgainWithEveryId(CapturedOutput output) {
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());
        redis().del(ColorKeys.HASH_KEYSPACE);
        redis().set(ColorKeys.HASH_KEYSPACE, "not a set");
        int logged = output.getAll().length();

        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());

        assertThat(redis().smembers(ColorKeys.HASH_KEYSPACE)).containsExactlyInAnyOrderElementsOf(Palette.names());
        assertThat(output.getAll().substring(logged).lines().filter(line -> line.contains(" WARN ")))
                .singleElement().asString().endsWith("Unreadable value at colors::v2: not a color for this key; answering from the palette and rewriting it");
        assertAFullReadIsServedFromRedisAtTheUsualCost();
    }

    /** A hash whose id is gone from the set is not seen by findAll: saved again as it is, which adds the id back. */
    @Test
    void aReadableHashMissingFromTheIdSetIsAddedBackAsItIs() {
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());
        Color repainted = new Color("tomato", "#010203", 1, 2, 3);
        redis().hset(ColorKeys.hashKey("tomato"), Map.of("hex", repainted.hex(), "red", "1", "green", "2", "blue", "3"));
        redis().srem(ColorKeys.HASH_KEYSPACE, "tomato");
        try {
            assertThat(get("/colors/tomato").body()).isEqualTo(ColorJson.of(repainted));
            assertThat(get("/colors").body()).contains(ColorJson.of(repainted));

            assertThat(redis().sismember(ColorKeys.HASH_KEYSPACE, "tomato")).isTrue();
            assertThat(redis().hget(ColorKeys.hashKey("tomato"), "hex")).isEqualTo(repainted.hex());
        }
        finally {
            redis().hset(ColorKeys.hashKey("tomato"), Map.of("hex", "#ff6347", "red", "255", "green", "99", "blue", "71"));
            redis().sadd(ColorKeys.HASH_KEYSPACE, "tomato");
        }
        assertAFullReadIsServedFromRedisAtTheUsualCost();
    }
}
