package dev.colorbench.cacheablemultiget;

import java.util.Map;

import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.testkit.ColorApiContractTest;
import dev.colorbench.testkit.RedisCommandStats;
import dev.colorbench.testkit.TestRedis;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CacheableMultigetContractTest extends ColorApiContractTest {

    CacheableMultigetContractTest() {
        super(Map.of("mget", 1L));
    }

    @Test
    void aColdCacheCostsOneMgetAnExistsAndOneBatchedWriteThenServesFromRedis() {
        redis().del(Palette.names().stream().map(ColorKeys::cacheKey).toArray(String[]::new));

        try (RedisCommandStats stats = RedisCommandStats.connect(TestRedis.url())) {
            RedisCommandStats.Usage cold = stats.usage(() -> assertThat(get("/colors").body()).isEqualTo(ColorJson.palette()));
            RedisCommandStats.Usage warm = stats.usage(() -> assertThat(get("/colors").body()).isEqualTo(ColorJson.palette()));

            assertThat(cold.commands()).isEqualTo(Map.of("mget", 1L, "exists", 1L, "mset", 1L));
            assertThat(cold.roundTrips()).isEqualTo(3);
            assertThat(warm.commands()).isEqualTo(Map.of("mget", 1L));
            assertThat(warm.roundTrips()).isEqualTo(1);
        }
        for (String name : Palette.names()) {
            assertThat(redis().get(ColorKeys.cacheKey(name))).as(name).isEqualTo(ColorJson.of(Palette.find(name).orElseThrow()));
        }
    }

    @Test
    void aSubsetIsOneMgetOfJustThoseKeys() {
        try (RedisCommandStats stats = RedisCommandStats.connect(TestRedis.url())) {
            assertThat(stats.during(() -> get("/colors/tomato"))).isEqualTo(Map.of("mget", 1L));
            assertThat(stats.during(() -> get("/colors?names=teal,tomato,teal"))).isEqualTo(Map.of("mget", 1L));
        }
    }
}
