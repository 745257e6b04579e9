package dev.colorbench.benchmark.run;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class MachineSteadinessTest {

    @Test
    void countsBothKindsOfWorkInEveryWindowOnThisMachine() {
        MachineSteadiness machine = MachineSteadiness.measure(2, 1);

        assertThat(machine.windowSeconds()).isEqualTo(1);
        assertThat(machine.arithmeticPerWindow()).hasSize(2).allSatisfy(work -> assertThat(work).isPositive());
        assertThat(machine.memoryReadsPerWindow()).hasSize(2).allSatisfy(work -> assertThat(work).isPositive());
    }

    @Test
    void judgesTheWindowsBeforeAndAfterTogetherByTheirRangeAsAShareOfTheMedian() {
        MachineSteadiness machine = new MachineSteadiness(8, List.of(100L, 101L), List.of(100L, 120L))
                .and(new MachineSteadiness(8, List.of(99L), List.of(90L)));

        assertThat(machine.memoryReadsPerWindow()).containsExactly(100L, 120L, 90L);
        assertThat(machine.arithmetic().rangePercent()).isCloseTo(2, within(1e-9));
        assertThat(machine.memoryReads().rangePercent()).isCloseTo(30, within(1e-9));
        assertThat(machine.describe()).isEqualTo(
                "the same work on every core in 3 windows of 8 s varied by 2 % of its median as arithmetic and by 30 % as reads from memory");
    }

    @Test
    void oneWindowClaimsNoSpreadOnlyItsWork() {
        assertThat(new MachineSteadiness(9, List.of(1_200L), List.of(3_400L)).describe()).isEqualTo("one window of 9 s: 1,200 units of "
                + "arithmetic and 3,400 of reads from memory, every core together, to compare with the windows after the rows");
    }
}
