package dev.colorbench.benchmark.plan;

import java.util.List;
import java.util.Map;
import java.util.Properties;

import dev.colorbench.benchmark.BenchmarkSettings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ScheduleTest {

    @Test
    void warmsEveryRowOnceThenInterleavesRepetitions() {
        Schedule schedule = Schedule.of(BenchmarkSettings.from(new Properties(), Map.of()), List.of("a", "b"));

        assertThat(schedule.runs()).extracting(run -> run.key().target() + " " + run.key().phase() + " " + run.key().repetition() + " " + run.seconds())
                .containsExactly("a WARMUP 0 15", "b WARMUP 0 5",
                        "a THROUGHPUT 1 8", "a LATENCY 1 4", "b THROUGHPUT 1 8", "b LATENCY 1 4",
                        "a THROUGHPUT 2 8", "a LATENCY 2 4", "b THROUGHPUT 2 8", "b LATENCY 2 4",
                        "a THROUGHPUT 3 8", "a LATENCY 3 4", "b THROUGHPUT 3 8", "b LATENCY 3 4");
    }

    @Test
    void theWarmUpRoundOfAFullRunGivesJMeterItselfAtLeastTwentySecondsHoweverManyRows() {
        BenchmarkSettings settings = BenchmarkSettings.from(new Properties(), Map.of());

        assertThat(Schedule.of(settings, List.of("a")).runs().get(0).seconds()).isEqualTo(20);
        assertThat(Schedule.of(settings, List.of("a", "b", "c", "d", "e", "f")).runs()).filteredOn(run -> run.key().phase() == Phase.WARMUP)
                .extracting(Schedule.Run::seconds).containsExactly(5, 5, 5, 5, 5, 5);
    }

    @Test
    void aQuickRunKeepsEveryWarmUpShort() {
        Properties quick = new Properties();
        quick.setProperty("benchmark.quick", "true");

        Schedule schedule = Schedule.of(BenchmarkSettings.from(quick, Map.of()), List.of("a", "b"));

        assertThat(schedule.runs()).filteredOn(run -> run.key().phase() == Phase.WARMUP).extracting(Schedule.Run::seconds).containsExactly(1, 1);
    }
}
