package dev.colorbench.benchmark.scenario;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.colorbench.benchmark.report.Fleet;
import dev.colorbench.benchmark.results.Spread;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The fleet model checked across client counts: each step's requests a second per core, application and Redis, against the
 * model step's, in %: {@code (step - model) x 100 / model}.
 */
class ConcurrencyTest {

    @Test
    void eachStepIsComparedWithTheModelStep() {
        Map<Integer, Fleet.Spreads> steps = new LinkedHashMap<>();
        steps.put(1, spreads(25_000.0, 40_000.0));
        steps.put(10, spreads(20_000.0, 50_000.0));
        steps.put(100, spreads(19_000.0, 50_100.0));
        steps.put(1000, spreads(15_000.0, 75_000.0));

        Concurrency.ModelCheck model = Concurrency.ModelCheck.of(10, steps);

        assertThat(model.appRequestsPerCore()).isEqualTo(20_000.0);
        assertThat(model.redisRequestsPerCore()).isEqualTo(50_000.0);
        assertThat(model.steps()).extracting(Concurrency.ModelCheck.Step::clients).containsExactly(1, 10, 100, 1000);
        Concurrency.ModelCheck.Step one = model.steps().get(0);
        assertThat(one.appDifferencePercent()).isCloseTo(25.0, within(1e-9));
        assertThat(one.redisDifferencePercent()).isCloseTo(-20.0, within(1e-9));
        assertThat(model.steps().get(1).appDifferencePercent()).isCloseTo(0.0, within(1e-9));
        assertThat(model.steps().get(2).appDifferencePercent()).isCloseTo(-5.0, within(1e-9));
        assertThat(model.steps().get(2).redisDifferencePercent()).isCloseTo(0.2, within(1e-9));
        assertThat(model.steps().get(3).appDifferencePercent()).isCloseTo(-25.0, within(1e-9));
        assertThat(model.steps().get(3).redisDifferencePercent()).isCloseTo(50.0, within(1e-9));
        assertThat(model.describe()).isEqualTo(
                "1: 25,000 (+25 %) · 40,000 (-20 %); 10 (model): 20,000 · 50,000; 100: 19,000 (-5 %) · 50,100 (0 %); 1,000: 15,000 (-25 %) · 75,000 (+50 %)");
    }

    @Test
    void aRowWithoutRedisSaysSoAndAMissingModelStepGivesNoDifference() {
        Map<Integer, Fleet.Spreads> noRedis = new LinkedHashMap<>();
        noRedis.put(1, Fleet.Spreads.ofRuns(List.of(50.0), List.of(0.0), java.util.Arrays.asList((Double) null),
                java.util.Arrays.asList((Double) null)));
        noRedis.put(10, Fleet.Spreads.ofRuns(List.of(40.0), List.of(0.0), java.util.Arrays.asList((Double) null),
                java.util.Arrays.asList((Double) null)));
        Concurrency.ModelCheck ceiling = Concurrency.ModelCheck.of(10, noRedis);
        assertThat(ceiling.redis()).isFalse();
        // 1,000,000 / 50 µs = 20,000 against 1,000,000 / 40 µs = 25,000: -20 %
        assertThat(ceiling.steps().get(0).appDifferencePercent()).isCloseTo(-20.0, within(1e-9));
        assertThat(ceiling.describe()).isEqualTo("1: 20,000 (-20 %) · n/a; 10 (model): 25,000 · n/a");

        Map<Integer, Fleet.Spreads> unmeasured = new LinkedHashMap<>();
        unmeasured.put(1, spreads(25_000.0, 40_000.0));
        unmeasured.put(10, new Fleet.Spreads(null, null, spread(2_000.0), spread(10_000.0)));
        Concurrency.ModelCheck missing = Concurrency.ModelCheck.of(10, unmeasured);
        assertThat(missing.steps().get(0).appDifferencePercent()).isNull();
        assertThat(missing.describe()).isEqualTo("1: 25,000 · 40,000; 10 (model): missing · missing");
    }

    @Test
    void theModelStepIsTheHeadlinesClientCountWhenItIsAStep() {
        assertThat(Concurrency.modelClients(List.of(1, 10, 100, 1000), 10)).isEqualTo(10);
        assertThat(Concurrency.modelClients(List.of(1, 10, 100, 1000), 100)).isEqualTo(100);
        assertThat(Concurrency.modelClients(List.of(1, 10), 20)).isEqualTo(10);
    }

    private static Fleet.Spreads spreads(double app, double redis) {
        return new Fleet.Spreads(spread(app), spread(redis), spread(2_000.0), spread(10_000.0));
    }

    private static Spread spread(double median) {
        return new Spread(median, median * 0.9, median * 1.1, 3);
    }
}
