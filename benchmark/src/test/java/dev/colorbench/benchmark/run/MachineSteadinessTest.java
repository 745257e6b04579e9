package dev.colorbench.benchmark.run;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class MachineSteadinessTest {

    @Test
    void countsTheWorkOfEveryWindowOnThisMachine() {
        MachineSteadiness machine = MachineSteadiness.measure(2, 1);

        assertThat(machine.windowSeconds()).isEqualTo(1);
        assertThat(machine.workPerWindow()).hasSize(2).allSatisfy(work -> assertThat(work).isPositive());
    }

    @Test
    void judgesTheWindowsBeforeAndAfterTogetherByTheirRangeAsAShareOfTheMedian() {
        MachineSteadiness machine = new MachineSteadiness(8, List.of(100L, 120L)).and(new MachineSteadiness(8, List.of(90L)));

        assertThat(machine.workPerWindow()).containsExactly(100L, 120L, 90L);
        assertThat(machine.spread().rangePercent()).isCloseTo(30, within(1e-9));
        assertThat(machine.describe()).isEqualTo("the same CPU work on every core in 3 windows of 8 s varied by 30 % of its median (90-120 units)");
    }
}
