package dev.colorbench.benchmark.report;

import java.util.List;
import java.util.Map;

import dev.colorbench.testkit.statistics.Interval;
import dev.colorbench.benchmark.results.Spread;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The fleet on paper: cores, shards and MB/s at a rate, from what one request cost, with their bounds. */
class FleetTest {

    @Test
    void takesEachRatePerRoundThenItsIntervalOverTheRounds() {
        // the module spent 100, 125 and 80 µs a request in three rounds, Redis 20, 25 and 16: 10,000, 8,000 and 12,500 requests a second per core
        Fleet.Figures figures = Fleet.Figures.byRound(Map.of(1, 100.0, 2, 125.0, 3, 80.0), Map.of(1, 20.0, 2, 25.0, 3, 16.0),
                Map.of(1, 2_300.0, 2, 2_300.0, 3, 2_300.0), Map.of(1, 11_000.0, 2, 11_100.0, 3, 10_900.0));

        // the geometric mean of the rounds' rates, and a t interval over three rounds of one row, wider than their range
        assertThat(figures.appRequestsPerCore().estimate()).isCloseTo(10_000, within(1e-6));
        assertThat(figures.appRequestsPerCore().low()).isLessThan(8_000);
        assertThat(figures.appRequestsPerCore().high()).isGreaterThan(12_500);
        assertThat(figures.redisRequestsPerCore().estimate()).isCloseTo(50_000, within(1e-6));
        assertThat(figures.bytesFromRedis().estimate()).isCloseTo(10_999.7, within(0.1)); // the geometric mean of 11,000, 11,100 and 10,900
        assertThat(figures.appRequestsPerCore().rounds()).isEqualTo(3);
    }

    @Test
    void aRowWithoutRedisHasNoRedisSide() {
        Fleet.Figures figures = Fleet.Figures.byRound(Map.of(1, 50.0), null, Map.of(), Map.of());

        assertThat(figures.redisRequestsPerCore()).isNull();
        assertThat(figures.bytesToRedis()).isNull();
        Fleet.Need need = Fleet.need(figures, 100_000);
        assertThat(need.applicationCores().estimate()).isCloseTo(5, within(1e-9));
        assertThat(need.redisCores()).isNull();
        assertThat(need.redisShards()).isNull();
        assertThat(need.moreCores()).isEqualTo("application (no Redis)");
    }

    @Test
    void coresComeFromTheRatesBoundsTheLowEndFromTheHighRate() {
        Fleet.Figures figures = new Fleet.Figures(new Interval(10_000, 8_000, 12_500, 8), new Interval(50_000, 40_000, 62_500, 8),
                new Interval(2_300, 2_250, 2_350, 8), new Interval(11_000, 10_900, 11_100, 8));

        Fleet.Need need = Fleet.need(figures, 1_000_000);

        assertThat(need.applicationCores().estimate()).isCloseTo(100, within(1e-9));
        assertThat(need.applicationCores().low()).isCloseTo(80, within(1e-9));
        assertThat(need.applicationCores().high()).isCloseTo(125, within(1e-9));
        assertThat(need.redisCores().estimate()).isCloseTo(20, within(1e-9));
        assertThat(need.redisCores().low()).isCloseTo(16, within(1e-9));
        assertThat(need.redisCores().high()).isCloseTo(25, within(1e-9));
        // 2,300 B a request at 1,000,000 a second
        assertThat(need.megabytesToRedis().estimate()).isCloseTo(2_300, within(1e-6));
        assertThat(need.megabytesFromRedis().high()).isCloseTo(11_100, within(1e-6));
        assertThat(need.moreCores()).isEqualTo("application, 5.00 x Redis's");
    }

    @Test
    void shardsAreRedisCoresRoundedUpAndAtLeastOne() {
        Fleet.Figures figures = new Fleet.Figures(new Interval(10_000, 10_000, 10_000, 1), new Interval(40_000, 30_000, 50_000, 8), null, null);

        // 100,000 a second over 40,000 per main thread: 2.5 cores, 3 shards; 2 to 4 over the bounds (2.0 and 3.33 rounded up)
        Fleet.Need need = Fleet.need(figures, 100_000);
        assertThat(need.redisShards().estimate()).isEqualTo(3);
        assertThat(need.redisShards().low()).isEqualTo(2);
        assertThat(need.redisShards().high()).isEqualTo(4);
        assertThat(Fleet.need(figures, 10_000).redisShards().estimate()).as("a quarter of a main thread is still one server").isEqualTo(1);
        assertThat(Fleet.shards(3.0000000000004)).as("a whole number, not its rounding error, decides").isEqualTo(3);
        assertThat(Fleet.shards(3.01)).isEqualTo(4);
    }

    @Test
    void saysWhichSideNeedsMoreCoresFromTheirRatioRoundByRound() {
        // module 100 µs a request, Redis 20, in eight rounds in two forks: the application needs five times the cores
        Map<Integer, Double> module = Map.of(1, 100.0, 2, 104.0, 3, 97.0, 4, 101.0, 5, 99.0, 6, 103.0, 7, 98.0, 8, 100.0);
        Map<Integer, Double> redis = Map.of(1, 20.0, 2, 21.0, 3, 19.5, 4, 20.0, 5, 20.5, 6, 20.0, 7, 19.0, 8, 20.0);
        // a row whose two sides cost about the same, back and forth
        Map<Integer, Double> even = Map.of(1, 50.0, 2, 52.0, 3, 48.0, 4, 51.0, 5, 49.0, 6, 50.0, 7, 53.0, 8, 47.0);
        Map<Integer, Double> evenRedis = Map.of(1, 51.0, 2, 49.0, 3, 50.0, 4, 52.0, 5, 48.0, 6, 51.0, 7, 49.0, 8, 50.0);
        Fleet.Tables tables = new Fleet.Tables(round -> (round - 1) / 4 + 1);
        tables.add("mget", module, redis, Map.of(1, 100.0), Map.of(1, 1000.0));
        tables.add("even", even, evenRedis, Map.of(1, 100.0), Map.of(1, 1000.0));

        assertThat(Fleet.need(tables.figures("mget"), 10_000).moreCores()).startsWith("application, 5.0");
        assertThat(Fleet.need(tables.figures("even"), 10_000).moreCores()).startsWith("level (");
        Fleet.Tables oneFork = new Fleet.Tables(round -> 1);
        oneFork.add("mget", module, redis, Map.of(1, 100.0), Map.of(1, 1000.0));
        assertThat(Fleet.need(oneFork.figures("mget"), 10_000).moreCores()).as("one fork separates nothing").startsWith("level (application, 5.0");
    }

    @Test
    void aScenarioRowWithoutAPairedRatioSaysWhichSideFromItsRanges() {
        assertThat(Fleet.moreCores(new Interval(2, 1.8, 2.2, 8), new Interval(5, 4.5, 5.5, 8))).isEqualTo("Redis, 2.50 x the application's");
        assertThat(Fleet.moreCores(new Interval(5, 4, 6, 8), new Interval(4.5, 4.2, 4.8, 8))).isEqualTo("level (ranges overlap)");
        // one round: bounds of no width, the estimates decide
        assertThat(Fleet.moreCores(new Interval(5, 5, 5, 1), new Interval(4.5, 4.5, 4.5, 1))).isEqualTo("application, 1.11 x Redis's");
    }

    @Test
    void aRateOfOnesOwnJoinsTheDefaultsAndAnythingElseIsRefusedNamingTheRange() {
        assertThat(Fleet.rates((String) null)).containsExactly(10_000.0, 100_000.0, 1_000_000.0);
        assertThat(Fleet.rates(" ")).containsExactly(10_000.0, 100_000.0, 1_000_000.0);
        assertThat(Fleet.rates("250000")).containsExactly(10_000.0, 100_000.0, 250_000.0, 1_000_000.0);
        assertThat(Fleet.rates("1e5")).as("a default named again is shown once").containsExactly(10_000.0, 100_000.0, 1_000_000.0);
        assertThat(Fleet.rates("2_500")).containsExactly(2_500.0, 10_000.0, 100_000.0, 1_000_000.0);
        for (String wrong : List.of("0", "-5", "lots", "NaN", "Infinity", "2e9")) {
            assertThatThrownBy(() -> Fleet.rates(wrong)).as(wrong).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("benchmark.fleetRate").hasMessageContaining("above 0 and at most 1,000,000,000").hasMessageContaining("'" + wrong + "'");
        }
    }

    @Test
    void aScenarioRendersTheSameTableFromItsRowsSpreadsWithNaForARowWithoutRedis() {
        // two repetitions: the module at 100 and 125 µs, Redis at 20 and 25 µs, 2,300 B in and 11,000 B out a request
        Fleet.Spreads mget = Fleet.Spreads.ofRuns(List.of(100.0, 125.0), List.of(20.0, 25.0), List.of(2_300.0, 2_300.0), List.of(11_000.0, 11_000.0));
        // a database row: its store CPU is PostgreSQL's, and no byte was counted
        java.util.ArrayList<Double> none = new java.util.ArrayList<>();
        none.add(null);
        none.add(null);
        Fleet.Spreads jdbc = Fleet.Spreads.ofRuns(List.of(200.0, 200.0), List.of(300.0, 300.0), none, none);
        assertThat(mget.appRequestsPerCore()).isEqualTo(new Spread(9_000, 8_000, 10_000, 2));
        assertThat(jdbc.redisRequestsPerCore()).isNull();

        Section section = Fleet.section("workload-fleet", "What a fleet needs from Redis, for this workload",
                List.of(Fleet.Row.of("template-mget", mget), Fleet.Row.of("jdbc-loop", jdbc)), Fleet.RANGE, List.of(100_000.0, 1_000_000.0));

        assertThat(section.rows()).hasSize(4);
        assertThat(section.rows().get(0)).containsExactly("template-mget", "9,000 (8,000-10,000) · 45,000 (40,000-50,000)",
                "2,300 · 11,000", "4.8 · 15.3 OVER", "100,000", "11 (10-13)", "2.2 (2-2.5)", "3 (2-3)", "230 · 1,100", "application, 5.00 x Redis's");
        assertThat(section.rows().get(1).get(1)).as("the row's own figures once, on its first rate").isEmpty();
        assertThat(section.rows().get(3)).containsExactly("jdbc-loop", "", "", "", "1,000,000", "200", "n/a", "n/a", "n/a · n/a", "application (no Redis)");
        assertThat(section.intro()).contains("network between hosts", "Redis I/O threads", "replicas serving reads", "spread evenly over the shards");
        assertThat(section.notes().get(0)).contains("range of the repetitions", "-Dbenchmark.fleetRate=", "10 Gbit/s link", "Headroom: none");
        assertThat(Fleet.section("f", "t", List.of(Fleet.Row.of("jdbc-loop", jdbc)), Fleet.RANGE, List.of(1.0)).rows().get(0).get(3))
                .as("no Redis, no link to it").isEqualTo("n/a");
        assertThat(section.problems()).isEmpty();
    }
}
