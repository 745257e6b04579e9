package dev.colorbench.benchmark;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The workload run's knobs: read in the run's own words, and refused with the range they must lie in. */
class WorkloadTest {

    @Test
    void theIssuesExampleIsReadAsGiven() {
        Workload workload = settings("workload", "400", "2048", "1ms").workload();
        assertThat(workload).isEqualTo(new Workload(400, 2048, Duration.ofMillis(1)));
        assertThat(workload.describe()).isEqualTo("400 keys, 2,048 bytes a value, Redis 1 ms further away");
    }

    @Test
    void roundTripsAreReadInTheirUnits() {
        assertThat(Workload.roundTrip("250us")).isEqualTo(Duration.ofNanos(250_000));
        assertThat(Workload.roundTrip("0.5ms")).isEqualTo(Duration.ofNanos(500_000));
        assertThat(Workload.roundTrip("2")).isEqualTo(Duration.ofMillis(2));
        assertThat(Workload.roundTrip("0")).isEqualTo(Duration.ZERO);
    }

    @Test
    void unsetKnobsAreTheHeadlinesOwn() {
        Workload workload = settings("workload", "", "", "").workload();
        assertThat(workload.isDefault()).isTrue();
        assertThat(workload.describe()).isEqualTo("148 keys, each value its color's own JSON (59 to 80 bytes), Redis on loopback");
    }

    @Test
    void noKeysIsRefusedWithTheRange() {
        assertThatIllegalArgumentException().isThrownBy(() -> settings("workload", "0", "", ""))
                .withMessage("benchmark.keys=0 is out of range: 1 to 457,124 keys (the 148 named colors, then generated ones)");
    }

    @Test
    void moreKeysThanThePaletteCanMakeAreRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> settings("workload", "500000", "", ""))
                .withMessageStartingWith("benchmark.keys=500,000 is out of range: 1 to 457,124 keys");
    }

    @Test
    void aValueSizeOutsideTheContractIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> settings("workload", "", "64", ""))
                .withMessage("benchmark.valueBytes=64 is out of range: 128 to 1,048,576 bytes a value (unset: each color's own JSON, 59 to 80 bytes)");
        assertThatIllegalArgumentException().isThrownBy(() -> settings("workload", "", "2000000", ""))
                .withMessageStartingWith("benchmark.valueBytes=2,000,000 is out of range");
    }

    @Test
    void anAnswerPastWhatOneMayHoldIsRefusedWithTheLargestValueThatFits() {
        assertThatIllegalArgumentException().isThrownBy(() -> settings("workload", "10000", "16384", ""))
                .withMessage("benchmark.keys=10,000 of benchmark.valueBytes=16,384 is 156 MiB an answer, past the 64 MiB one answer may hold: "
                        + "with 10,000 keys, values of at most 6,710 bytes");
    }

    @Test
    void aNegativeOrFarRoundTripIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> settings("workload", "", "", "-1ms"))
                .withMessage("benchmark.redisRoundTrip=-1ms is out of range: 0 to 50 ms added to every round trip to Redis");
        assertThatIllegalArgumentException().isThrownBy(() -> settings("workload", "", "", "51ms"))
                .withMessageStartingWith("benchmark.redisRoundTrip=51ms is out of range");
        assertThatIllegalArgumentException().isThrownBy(() -> settings("workload", "", "", "soon"))
                .withMessage("benchmark.redisRoundTrip=soon is not a duration: write it like 1ms, 0.25ms or 250us");
        assertThatIllegalArgumentException().isThrownBy(() -> settings("workload", "many", "", ""))
                .withMessage("benchmark.keys=many is not a whole number of keys");
    }

    @Test
    void theKnobsAreRefusedWhereTheyWouldBeIgnored() {
        assertThatIllegalArgumentException().isThrownBy(() -> settings("keys", "400", "", ""))
                .withMessageStartingWith("benchmark.keys, benchmark.valueBytes and benchmark.redisRoundTrip describe the workload run");
    }

    private static BenchmarkSettings settings(String scenario, String keys, String valueBytes, String redisRoundTrip) {
        Properties properties = new Properties();
        properties.setProperty("benchmark.scenario", scenario);
        properties.setProperty("benchmark.keys", keys);
        properties.setProperty("benchmark.valueBytes", valueBytes);
        properties.setProperty("benchmark.redisRoundTrip", redisRoundTrip);
        return BenchmarkSettings.from(properties, Map.of());
    }
}
