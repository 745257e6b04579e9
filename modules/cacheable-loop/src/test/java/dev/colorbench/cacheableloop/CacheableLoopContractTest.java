package dev.colorbench.cacheableloop;

import java.util.Map;

import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.testkit.ColorApiContractTest;
import dev.colorbench.testkit.RedisCommandStats;
import dev.colorbench.testkit.TestRedis;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CacheableLoopContractTest extends ColorApiContractTest {

    CacheableLoopContractTest() {
        super(Map.of("get", 148L));
    }

    @Test
    void aColdCacheCostsAMissAndAWritePerColorThenServesFromRedis() {
        redis().del(Palette.names().stream().map(name -> ColorKeys.CACHE_NAME + "::" + name).toArray(String[]::new));

        try (RedisCommandStats stats = RedisCommandStats.connect(TestRedis.url())) {
            Map<String, Long> cold = stats.during(() -> assertThat(get("/colors").body()).isEqualTo(ColorJson.palette()));
            Map<String, Long> warm = stats.during(() -> assertThat(get("/colors").body()).isEqualTo(ColorJson.palette()));

            assertThat(cold).isEqualTo(Map.of("get", 148L, "set", 148L));
            assertThat(warm).isEqualTo(Map.of("get", 148L));
        }
        assertThat(redis().get(ColorKeys.CACHE_NAME + "::red")).contains("\"hex\":\"#ff0000\"");
    }
}
