package dev.colorbench.cacheablelist;

import java.util.Map;

import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.testkit.ColorApiContractTest;
import dev.colorbench.testkit.RedisCommandStats;
import dev.colorbench.testkit.TestRedis;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CacheableListContractTest extends ColorApiContractTest {

    CacheableListContractTest() {
        super(Map.of("get", 1L));
    }

    @Test
    void aColdCacheCostsAMissAndOneWriteOfThePaletteThenServesFromRedis() {
        redis().del(ColorKeys.paletteCacheKey());

        try (RedisCommandStats stats = RedisCommandStats.connect(TestRedis.url())) {
            RedisCommandStats.Usage cold = stats.usage(() -> assertThat(get("/colors").body()).isEqualTo(ColorJson.palette()));
            RedisCommandStats.Usage warm = stats.usage(() -> assertThat(get("/colors").body()).isEqualTo(ColorJson.palette()));

            assertThat(cold.commands()).isEqualTo(Map.of("get", 1L, "set", 1L));
            assertThat(cold.roundTrips()).isEqualTo(2);
            assertThat(warm.commands()).isEqualTo(Map.of("get", 1L));
            assertThat(warm.roundTrips()).isEqualTo(1);
        }
        assertThat(redis().get(ColorKeys.paletteCacheKey())).as("the cached value is the answer's JSON").isEqualTo(ColorJson.palette());
    }

    @Test
    void aSubsetIsFilteredFromTheOneCachedPalette() {
        try (RedisCommandStats stats = RedisCommandStats.connect(TestRedis.url())) {
            Map<String, Long> one = stats.during(() -> get("/colors/tomato"));
            Map<String, Long> some = stats.during(() -> get("/colors?names=teal,tomato,teal"));

            assertThat(one).isEqualTo(Map.of("get", 1L));
            assertThat(some).isEqualTo(Map.of("get", 1L));
        }
    }
}
