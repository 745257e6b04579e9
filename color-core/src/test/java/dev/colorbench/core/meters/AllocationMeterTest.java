package dev.colorbench.core.meters;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AllocationMeterTest {

    @Test
    void countsWhatTheJvmAllocatesAtEveryReading() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new AllocationMeterAutoConfiguration().allocatedBytes().bindTo(registry);
        FunctionCounter allocated = registry.get(AllocationMeterAutoConfiguration.METER).functionCounter();

        double before = allocated.count();
        byte[][] kept = new byte[64][];
        for (int i = 0; i < kept.length; i++) {
            kept[i] = new byte[16 * 1024];
        }
        double after = allocated.count();

        assertThat(kept[63]).hasSize(16 * 1024);
        assertThat(after - before).isGreaterThanOrEqualTo(64 * 16 * 1024);
    }
}
