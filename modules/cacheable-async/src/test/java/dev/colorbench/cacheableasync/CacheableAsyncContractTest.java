package dev.colorbench.cacheableasync;

import java.util.Map;

import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.testkit.ColorApiContractTest;
import dev.colorbench.testkit.RedisCommandStats;
import dev.colorbench.testkit.TestRedis;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One {@code GET /colors} is 148 GETs, started together. How many round trips they take varies
 * from request to request with thread scheduling; with flushes consolidated (the default), most
 * requests take a few, which {@link #the148LookupsShareAFewRoundTrips} prints (the module's README).
 * Lookups made one after another would take 148, one per GET: the bounds below (half of that for
 * one request, a quarter at the median) fail for them, and leave room for a loaded machine.
 */
class CacheableAsyncContractTest extends ColorApiContractTest {

    CacheableAsyncContractTest() {
        super(Map.of("get", 148L));
    }

    /** At most half as many round trips as commands: the lookups overlapped. */
    @Override
    protected void assertRoundTrips(long roundTrips, long commands) {
        assertThat(roundTrips).as("round trips of one GET /colors").isBetween(1L, commands / 2);
    }

    @Test
    void the148LookupsShareAFewRoundTrips() {
        get("/colors");

        RoundTripSample sample = RoundTripSample.measure(TestRedis.url(), 50, () -> get("/colors"));

        System.out.println("cacheable-async, flushes consolidated: " + sample);
        assertThat(sample.median()).as(sample.toString()).isLessThanOrEqualTo(148 / 4);
    }

    @Test
    void aColdCacheCostsAMissAndAWritePerColorInAFewRoundTripsThenServesFromRedis() {
        redis().del(Palette.names().stream().map(ColorKeys::cacheKey).toArray(String[]::new));

        try (RedisCommandStats stats = RedisCommandStats.connect(TestRedis.url())) {
            RedisCommandStats.Usage cold = stats.usage(() -> assertThat(get("/colors").body()).isEqualTo(ColorJson.palette()));
            RedisCommandStats.Usage warm = stats.usage(() -> assertThat(get("/colors").body()).isEqualTo(ColorJson.palette()));

            System.out.println("cacheable-async, flushes consolidated: a cold GET /colors took " + cold.roundTrips() + " round trips");
            assertThat(cold.commands()).isEqualTo(Map.of("get", 148L, "set", 148L));
            assertThat(cold.roundTrips()).as("round trips of a cold GET /colors").isBetween(1L, 148L);
            assertThat(warm.commands()).isEqualTo(Map.of("get", 148L));
        }
        for (String name : Palette.names()) {
            assertThat(redis().get(ColorKeys.cacheKey(name))).as(name).isEqualTo(ColorJson.of(Palette.find(name).orElseThrow()));
        }
    }
}
