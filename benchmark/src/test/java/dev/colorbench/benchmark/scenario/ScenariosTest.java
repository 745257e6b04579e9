package dev.colorbench.benchmark.scenario;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.colorbench.benchmark.results.JMeterResults;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Conditions that each need the modules started afresh run in every fork, the even forks in the reverse order, so that a
 * machine's drift during a scenario moves every condition alike; and a full run goes there and back where a quick one goes there.
 */
class ScenariosTest {

    @Test
    void conditionsRunInEveryForkTheEvenOnesInReverseAndComeBackInTheirOwnOrder() {
        List<String> ran = new ArrayList<>();
        // a null condition is one of them: values' "each color's own JSON"
        Map<Integer, List<JMeterResults>> byCondition = Scenarios.inForks(Arrays.asList(null, 1_024, 16_384), 3, (size, fork) -> {
            ran.add(size + "@" + fork);
            return null;
        });

        assertThat(ran).containsExactly("null@1", "1024@1", "16384@1", "16384@2", "1024@2", "null@2", "null@3", "1024@3", "16384@3");
        assertThat(byCondition.keySet()).containsExactly(null, 1_024, 16_384);
        assertThat(byCondition.values()).allSatisfy(runs -> assertThat(runs).hasSize(3));
    }

    @Test
    void aFullRunGoesThereAndBackAndAQuickOneThereOnly() {
        assertThat(Scenarios.thereAndBack(List.of("A", "B", "C"), false)).containsExactly("A", "B", "C", "C", "B", "A");
        assertThat(Scenarios.thereAndBack(List.of("A", "B", "C"), true)).containsExactly("A", "B", "C");
    }
}
