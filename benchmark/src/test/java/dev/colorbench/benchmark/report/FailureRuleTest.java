package dev.colorbench.benchmark.report;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The run fails on a defect and only on a defect: a 200 with a wrong body, another error, or a run without samples. A
 * 503 is the contract's answer to a store that did not answer in time: a figure of its row, up to 0.1 % of its requests.
 */
class FailureRuleTest {

    @Test
    void aRareStoreTimeOutIsAFigureOfItsRowNotAFailedRun() {
        // a machine starved of CPU: one statement past PostgreSQL's time-out in tens of thousands of requests
        ModuleSummary row = row("jdbc-batch", 73_530, Map.of("503 Test failed: code expected to equal /=1", 1L));

        assertThat(Summaries.problems(List.of(row), 0)).isEmpty();
        assertThat(ReportView.closedFailed(row)).isEqualTo("1 of 73,530, 1 answered 503");
    }

    @Test
    void storeTimeOutsAboveOnePerThousandFailTheRun() {
        ModuleSummary row = row("jdbc-batch", 10_000, Map.of("503 Test failed: code expected to equal /=1", 11L));

        assertThat(Summaries.problems(List.of(row), 0)).singleElement().asString()
                .contains("module jdbc-batch: 0.11 % of the closed model's requests answered 503, store unavailable (11 of 10000), above 0.1 %");
    }

    @Test
    void aWrongBodyOrAnyOtherErrorStillFailsTheRun() {
        ModuleSummary wrongBody = row("template-mget", 73_530, Map.of("200 Test failed: text expected to equal /[...]/", 1L));
        ModuleSummary serverError = row("mget-raw", 73_530, Map.of("500 Test failed: code expected to equal /=1", 1L));

        assertThat(Summaries.problems(List.of(wrongBody), 0)).anySatisfy(problem -> assertThat(problem)
                .contains("module template-mget: 1 answers were 200 with a wrong body"));
        assertThat(Summaries.problems(List.of(serverError), 0)).singleElement().asString()
                .contains("module mget-raw: 0.00 % errors in the closed model (1 of 73530 samples)");
    }

    @Test
    void aMeasuredRunWithoutSamplesFailsTheRun() {
        ModuleSummary row = row("near-cache", 0, Map.of());

        assertThat(Summaries.problems(List.of(row), 0)).singleElement().asString().contains("module near-cache: throughput run 1 recorded no sample");
    }

    /** A row whose closed model served {@code samples} requests, {@code failures} of them failed for these reasons. */
    private static ModuleSummary row(String module, long samples, Map<String, Long> failures) {
        long errors = failures.values().stream().mapToLong(Long::longValue).sum();
        ModuleSummary.Latency closed = new ModuleSummary.Latency(1.0, 1L, 2L, 3L, 4L, samples, errors, 100.0, null, null, null, null, null, null);
        ModuleSummary.Latency none = new ModuleSummary.Latency(null, null, null, null, null, 0, 0, null, null, null, null, null, null, null);
        List<ModuleSummary.Run> runs = List.of(new ModuleSummary.Run("throughput", 1, samples, errors, samples / 7.0, List.of(), null, null, null,
                null, null, null, null, null, null, null, null));
        return new ModuleSummary(module, "pattern", "MVC", "redis-pattern", Map.of(), null, Map.of(), 1, 1.0, null, null, "1 MGET", 1.0,
                100.0, 100.0, 100.0, List.of(100.0), null, null, null, null, null, null, null, closed, none, none, null, null, null, null,
                new ModuleSummary.Gc(null, null, null), null, null, null, samples, errors, samples == 0 ? 0 : errors * 100.0 / samples,
                failures, failures, null, null, null, null, null, null, null, null, 0, runs, null);
    }
}
