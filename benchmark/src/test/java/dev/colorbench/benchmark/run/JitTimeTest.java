package dev.colorbench.benchmark.run;

import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The JIT's time read from a JVM's performance counters is what the JVM itself reports. */
class JitTimeTest {

    @Test
    void readsTheSameJitTimeAsTheJvmReportsOfItself() {
        long before = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
        Double fromOutside = JitTime.millis(ProcessHandle.current().pid());
        long after = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();

        assertThat(fromOutside).isNotNull();
        // the JIT keeps compiling between the three readings: the counters' figure lies between the JVM's two, to the ms
        assertThat(fromOutside).isBetween(before - 1.0, after + 1.0);
        assertThat(fromOutside).isPositive();
    }

    @Test
    void aProcessWithoutCountersHasNoJitTime() {
        assertThat(JitTime.millis(Long.MAX_VALUE)).isNull();
    }
}
