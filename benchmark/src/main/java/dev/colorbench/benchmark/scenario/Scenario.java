package dev.colorbench.benchmark.scenario;

import dev.colorbench.benchmark.report.Section;

/** One question the benchmark answers besides the headline, and its section of the report. */
public interface Scenario {

    /** How {@code -Dbenchmark.scenario} names it, and its folder under {@code benchmark/target/benchmark/}. */
    String name();

    Section run(ScenarioContext context);
}
