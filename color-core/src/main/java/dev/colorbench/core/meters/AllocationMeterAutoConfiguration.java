package dev.colorbench.core.meters;

import java.lang.management.ManagementFactory;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * Every byte the module's JVM has allocated so far, as the meter {@code colorbench.jvm.allocated}:
 * what the benchmark reads around each run to give the allocation per request. Micrometer's own
 * {@code jvm.gc.memory.allocated} moves only at each young collection, so over a short run, or
 * one with few collections, it says little; this one is exact at every reading.
 */
@AutoConfiguration
@ConditionalOnClass(MeterBinder.class)
public class AllocationMeterAutoConfiguration {

    static final String METER = "colorbench.jvm.allocated";

    @Bean
    MeterBinder allocatedBytes() {
        return registry -> {
            if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads
                    && threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled()) {
                FunctionCounter.builder(METER, threads, com.sun.management.ThreadMXBean::getTotalThreadAllocatedBytes)
                        .baseUnit("bytes")
                        .description("Bytes allocated in the heap by every thread since the JVM started")
                        .register(registry);
            }
        };
    }
}
