package dev.colorbench.benchmark.plan;

import java.util.List;
import java.util.Map;
import java.util.Properties;

import dev.colorbench.benchmark.BenchmarkSettings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ScheduleTest {

    @Test
    void warmsEveryRowOnceThenMeasuresEveryRowOnceARoundInAnOrderOfItsOwn() {
        Properties three = new Properties();
        three.setProperty("benchmark.repetitions", "3");
        Schedule schedule = Schedule.of(BenchmarkSettings.from(three, Map.of()), List.of("a", "b"));

        assertThat(schedule.runs().subList(0, 2)).extracting(run -> run.key().target() + " " + run.key().phase() + " " + run.seconds())
                .containsExactly("a WARMUP 15", "b WARMUP 5");
        for (int round = 1; round <= 3; round++) {
            int r = round;
            assertThat(schedule.runs().subList(2 + 4 * (round - 1), 2 + 4 * round)).as("round " + round)
                    .allMatch(run -> run.key().repetition() == r)
                    .extracting(run -> run.key().target() + " " + run.key().phase() + " " + run.seconds())
                    .containsExactlyInAnyOrder("a THROUGHPUT 5", "a LATENCY 4", "b THROUGHPUT 5", "b LATENCY 4");
        }
    }

    @Test
    void eachRoundHasAnOrderOfItsOwnTheSameForTheSameRound() {
        List<String> rows = List.of("a", "b", "c", "d", "e", "f", "g", "h");
        assertThat(Schedule.roundOrder(rows, 1, 7)).containsExactlyInAnyOrderElementsOf(rows).isEqualTo(Schedule.roundOrder(rows, 1, 7));
        List<List<String>> orders = java.util.stream.IntStream.rangeClosed(1, 8).mapToObj(round -> Schedule.roundOrder(rows, round, 7)).distinct().toList();
        assertThat(orders).as("eight rounds, eight orders").hasSize(8);
        assertThat(orders.stream().map(order -> order.get(0)).distinct().count()).as("not always the same row first").isGreaterThan(2);
    }

    @Test
    void eachRunDrawsItsOwnOrdersAndASeedRepeatsThem() {
        List<String> rows = List.of("a", "b", "c", "d", "e", "f", "g", "h");
        Properties seeded = new Properties();
        seeded.setProperty("benchmark.seed", "123456789");
        BenchmarkSettings one = BenchmarkSettings.from(new Properties(), Map.of());
        BenchmarkSettings other = BenchmarkSettings.from(new Properties(), Map.of());

        assertThat(one.seed()).as("a seed drawn for each run").isNotEqualTo(other.seed()).isNotNegative();
        assertThat(Schedule.of(BenchmarkSettings.from(seeded, Map.of()), rows).runs())
                .as("the same seed, the same orders").isEqualTo(Schedule.of(BenchmarkSettings.from(seeded, Map.of()), rows).runs());
        List<List<String>> firstRounds = java.util.stream.LongStream.rangeClosed(1, 8).mapToObj(seed -> Schedule.roundOrder(rows, 1, seed)).distinct().toList();
        assertThat(firstRounds).as("other seeds, other orders of one round").hasSizeGreaterThan(6);
    }

    @Test
    void aForksScheduleHoldsItsRoundsInTheOrdersTheyHaveInTheWholeRunAfterAWarmUpRoundOfItsOwn() {
        BenchmarkSettings settings = BenchmarkSettings.from(new Properties(), Map.of());
        List<String> rows = List.of("a", "b", "c");
        Schedule whole = Schedule.of(settings, rows, false);
        Schedule second = Schedule.of(settings, rows, false, settings.roundsOf(2));

        assertThat(second.runs()).filteredOn(run -> run.key().phase() == Phase.WARMUP).hasSize(3);
        assertThat(second.measured()).isEqualTo(whole.measured().stream().filter(run -> run.key().repetition() >= 5).toList());
    }

    @Test
    void theWarmUpRoundOfAFullRunGivesJMeterItselfAtLeastTwentySecondsHoweverManyRows() {
        BenchmarkSettings settings = BenchmarkSettings.from(new Properties(), Map.of());

        assertThat(Schedule.of(settings, List.of("a")).runs().get(0).seconds()).isEqualTo(20);
        assertThat(Schedule.of(settings, List.of("a", "b", "c", "d", "e", "f")).runs()).filteredOn(run -> run.key().phase() == Phase.WARMUP)
                .extracting(Schedule.Run::seconds).containsExactly(5, 5, 5, 5, 5, 5);
    }

    @Test
    void eachRoundHasOneFloorStepAtAPlaceOfItsOwnAndTheRowsKeepTheirOrders() {
        Properties seeded = new Properties();
        seeded.setProperty("benchmark.seed", "42");
        BenchmarkSettings settings = BenchmarkSettings.from(seeded, Map.of());
        List<String> rows = List.of("a", "b", "c", "d", "e");
        Schedule plain = Schedule.of(settings, rows, false);
        Schedule withFloor = plain.withFloor(settings);

        assertThat(withFloor.runs()).as("the rows' runs, in their orders").filteredOn(run -> run.key().phase() != Phase.FLOOR)
                .isEqualTo(plain.runs());
        List<Schedule.Run> steps = withFloor.runs().stream().filter(run -> run.key().phase() == Phase.FLOOR).toList();
        assertThat(steps).extracting(run -> run.key().repetition()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
        assertThat(steps).extracting(Schedule.Run::seconds).as("a GET and an MGET, each as long as a closed-model run").containsOnly(10);
        assertThat(withFloor.measured()).as("in no row's figures").isEqualTo(plain.measured());
        assertThat(withFloor.plannedSeconds()).isEqualTo(plain.plannedSeconds() + 8 * 10);
        // each step among its own round's rows, not always at the same place
        List<Integer> places = new java.util.ArrayList<>();
        for (int round = 1; round <= 8; round++) {
            int r = round;
            List<Schedule.Run> ofRound = withFloor.runs().stream().filter(run -> run.key().repetition() == r && run.key().phase() != Phase.WARMUP).toList();
            assertThat(withFloor.runs().subList(withFloor.runs().indexOf(ofRound.get(0)), withFloor.runs().indexOf(ofRound.get(ofRound.size() - 1)) + 1))
                    .as("round %d is one block", round).isEqualTo(ofRound);
            places.add(ofRound.indexOf(steps.get(round - 1)));
        }
        assertThat(places.stream().distinct().count()).as("places %s", places).isGreaterThan(2);
        assertThat(Schedule.of(settings, rows, false).withFloor(settings)).as("the same seed, the same places").isEqualTo(withFloor);
    }

    @Test
    void aFloorStepNeverComesBetweenARowsClosedModelRunAndItsOpenModelRun() {
        for (long seed = 1; seed <= 20; seed++) {
            Properties seeded = new Properties();
            seeded.setProperty("benchmark.seed", String.valueOf(seed));
            BenchmarkSettings settings = BenchmarkSettings.from(seeded, Map.of());
            Schedule schedule = Schedule.of(settings, List.of("a", "b"), true, List.of(1, 2, 3, 4, 5, 6, 7, 8)).withFloor(settings);

            for (int index = 1; index < schedule.runs().size(); index++) {
                if (schedule.runs().get(index).key().phase() == Phase.FLOOR) {
                    assertThat(schedule.runs().get(index - 1).key().phase()).as("seed %d, before the floor of round %d", seed,
                            schedule.runs().get(index).key().repetition()).isNotEqualTo(Phase.THROUGHPUT);
                }
            }
            assertThat(schedule.runs()).filteredOn(run -> run.key().phase() == Phase.FLOOR).hasSize(8);
        }
    }

    @Test
    void aQuickRunKeepsEveryWarmUpShort() {
        Properties quick = new Properties();
        quick.setProperty("benchmark.quick", "true");

        Schedule schedule = Schedule.of(BenchmarkSettings.from(quick, Map.of()), List.of("a", "b"));

        assertThat(schedule.runs()).filteredOn(run -> run.key().phase() == Phase.WARMUP).extracting(Schedule.Run::seconds).containsExactly(1, 1);
    }
}
