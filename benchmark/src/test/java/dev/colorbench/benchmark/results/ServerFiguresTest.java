package dev.colorbench.benchmark.results;

import java.util.Map;

import dev.colorbench.benchmark.plan.ServerMetric;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The bytes Redis read and wrote, carried from the CPU readings around a run into the run's figures. */
class ServerFiguresTest {

    @Test
    void theBytesToAndFromRedisAreTheDifferencesOfTheReadingsAroundTheRun() {
        ServerFigures figures = ServerFigures.between(Map.of(ServerMetric.CPU, cpu(2.0, 1_000.0, 50_000.0)),
                Map.of(ServerMetric.CPU, cpu(2.5, 26_000.0, 1_150_000.0)));

        assertThat(figures.storeCpuSeconds()).isCloseTo(0.5, within(1e-9));
        assertThat(figures.storeInBytes()).isCloseTo(25_000, within(1e-9));
        assertThat(figures.storeOutBytes()).isCloseTo(1_100_000, within(1e-9));
        // per request of a run of 1,000 requests: 25 B sent to Redis, 1,100 B back
        assertThat(ServerFigures.perRequest(figures.storeInBytes(), 1_000)).isCloseTo(25, within(1e-9));
        assertThat(ServerFigures.perRequest(figures.storeOutBytes(), 1_000)).isCloseTo(1_100, within(1e-9));
        assertThat(ServerFigures.perRequest(figures.storeOutBytes(), 0)).as("no request, no figure").isNull();
    }

    @Test
    void aRowWithoutRedisHasNoBytesRatherThanZero() {
        // the ceiling's readings (store CPU 0) and a database row's carry no byte counts, nor did the harness before it counted them
        ServerFigures figures = ServerFigures.between(Map.of(ServerMetric.CPU, cpu(0.0, null, null)), Map.of(ServerMetric.CPU, cpu(0.0, null, null)));

        assertThat(figures.storeCpuSeconds()).isZero();
        assertThat(figures.storeInBytes()).isNull();
        assertThat(figures.storeOutBytes()).isNull();
        assertThat(ServerFigures.perRequest(figures.storeInBytes(), 1_000)).isNull();
    }

    @Test
    void aReadingWithTheBytesOnOneSideOnlyGivesNoBytes() {
        ServerFigures figures = ServerFigures.between(Map.of(ServerMetric.CPU, cpu(2.0, null, null)), Map.of(ServerMetric.CPU, cpu(2.5, 10.0, 10.0)));

        assertThat(figures.storeInBytes()).isNull();
        assertThat(figures.storeCpuSeconds()).isCloseTo(0.5, within(1e-9));
    }

    private static ServerFigures.Reading cpu(double store, Double in, Double out) {
        String bytes = in == null ? "" : ",{\"statistic\":\"STORE_IN_BYTES\",\"value\":%s},{\"statistic\":\"STORE_OUT_BYTES\",\"value\":%s}".formatted(in, out);
        return new ServerFigures.Reading("200", ("{\"name\":\"colorbench.cpu\",\"baseUnit\":\"seconds\",\"measurements\":[{\"statistic\":\"MODULE\",\"value\":1.0},"
                + "{\"statistic\":\"STORE\",\"value\":%s}%s]}").formatted(store, bytes));
    }
}
