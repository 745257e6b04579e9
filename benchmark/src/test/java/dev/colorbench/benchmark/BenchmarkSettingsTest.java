package dev.colorbench.benchmark;

import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchmarkSettingsTest {

    @Test
    void quickModeChangesTheDefaultsButAKnobGivenOnTheCommandLineWins() {
        Properties given = new Properties();
        given.setProperty("benchmark.quick", "true");
        given.setProperty("benchmark.threads", "4");
        given.setProperty("benchmark.modules", "in-memory, template-mget");

        BenchmarkSettings quick = BenchmarkSettings.from(given, Map.of("REDIS_URL", "redis://127.0.0.1:6390"));

        assertThat(quick.repetitions()).isEqualTo(1);
        assertThat(quick.threads()).isEqualTo(4);
        assertThat(quick.modules()).containsExactly("in-memory", "template-mget");
        assertThat(quick.redisUrl()).isEqualTo("redis://127.0.0.1:6390");
        assertThat(quick.embeddedRedis()).isFalse();
    }

    @Test
    void theFullRunRepeatsEveryRowAndStartsItsOwnRedis() {
        BenchmarkSettings full = BenchmarkSettings.from(new Properties(), Map.of());

        assertThat(full.repetitions()).isGreaterThanOrEqualTo(3);
        assertThat(full.modules()).isEmpty();
        assertThat(full.embeddedRedis()).isTrue();
        assertThat(full.embeddedRedisCluster()).isTrue();
        assertThat(full.jvmArgs()).containsExactly("-Xms1g", "-Xmx1g", "-XX:+UseParallelGC");
        assertThat(full.reference()).isEqualTo("cacheable-loop");
    }

    @Test
    void aRowThatStillCompilesIsWarmedLongerInTheHeadlineAndInEveryScenarioAlike() {
        BenchmarkSettings full = BenchmarkSettings.from(new Properties(), Map.of());
        assertThat(full.warmupSeconds()).isEqualTo(12);
        assertThat(full.warmupCompilingSeconds()).isEqualTo(100);
        assertThat(full.warmupTogetherSeconds()).isEqualTo(60);
        assertThat(full.forScenario(10).warmupSeconds()).as("a scenario's figures as warm as the headline's").isEqualTo(12);
        assertThat(full.forScenario(10).warmupCompilingSeconds()).isEqualTo(100);
        assertThat(full.forScenario(10).warmupTogetherSeconds()).isEqualTo(60);
        assertThat(full.withRate(500).warmupCompilingSeconds()).isEqualTo(100);
        assertThat(full.warmupCompilingRequests()).as("twice C2's tiered threshold of calls").isEqualTo(30_000);
        assertThat(full.warmupLimitSeconds()).isEqualTo(300);
        assertThat(full.forScenario(10).warmupLimitSeconds()).isEqualTo(300);
        assertThat(full.withRate(500).warmupCompilingRequests()).isEqualTo(30_000);

        Properties shorter = new Properties();
        shorter.setProperty("benchmark.warmupLimit", "60");
        assertThatThrownBy(() -> BenchmarkSettings.from(shorter, Map.of())).as("a limit below the time a compiling row is given")
                .hasMessageContaining("benchmark.warmupLimit");
        Properties quickButLonger = new Properties();
        quickButLonger.setProperty("benchmark.quick", "true");
        quickButLonger.setProperty("benchmark.warmupCompiling", "40");
        assertThat(BenchmarkSettings.from(quickButLonger, Map.of()).warmupLimitSeconds()).as("unset, never below warmupCompiling").isEqualTo(40);

        Properties old = new Properties();
        old.setProperty("benchmark.scenarioWarmup", "20");
        assertThatThrownBy(() -> BenchmarkSettings.from(old, Map.of())).as("a knob that is gone is refused, not ignored")
                .hasMessageContaining("benchmark.warmupCompiling");
    }

    @Test
    void aQuickRunTakesEveryPathWithTheLeastLoadAndTheFullRunKeepsItsOwn() {
        Properties given = new Properties();
        given.setProperty("benchmark.quick", "true");
        BenchmarkSettings quick = BenchmarkSettings.from(given, Map.of());
        assertThat(quick.durationSeconds()).isEqualTo(1);
        assertThat(quick.rampupSeconds()).isZero();
        assertThat(quick.latencyDurationSeconds()).isEqualTo(1);
        assertThat(quick.warmupSeconds()).isEqualTo(2);
        assertThat(quick.warmupCompilingSeconds()).isEqualTo(2);
        assertThat(quick.warmupCompilingRequests()).isZero();
        assertThat(quick.warmupLimitSeconds()).isEqualTo(2);
        assertThat(quick.warmupSeconds()).as("two windows, the least that can settle").isEqualTo(quick.warmupWindows() * quick.warmupWindowSeconds());
        assertThat(quick.jmeterWarmupSeconds()).isEqualTo(1);
        assertThat(quick.forScenario(10).warmupSeconds()).isEqualTo(2);
        assertThat(quick.forScenario(10).durationSeconds()).isEqualTo(1);
        assertThat(quick.forScenario(10).rampupSeconds()).isZero();

        BenchmarkSettings full = BenchmarkSettings.from(new Properties(), Map.of());
        assertThat(full.durationSeconds()).isEqualTo(5);
        assertThat(full.latencyDurationSeconds()).isEqualTo(4);
        assertThat(full.forScenario(10).durationSeconds()).isEqualTo(6);
    }

    @Test
    void aScenarioMeasuresOneModulePerWayOfPayingForAReadUnlessTheRowsAreNamed() {
        BenchmarkSettings full = BenchmarkSettings.from(new Properties(), Map.of());
        assertThat(full.scenarioModules()).containsExactly("in-memory", "cacheable-loop", "template-mget", "reactive-mget", "pipelined-get");

        Properties quick = new Properties();
        quick.setProperty("benchmark.quick", "true");
        assertThat(BenchmarkSettings.from(quick, Map.of()).scenarioModules()).containsExactly("in-memory", "cacheable-loop", "reactive-mget", "jdbc-loop");

        Properties given = new Properties();
        given.setProperty("benchmark.scenarioModules", "cacheable-loop, redis-hash-repository");
        assertThat(BenchmarkSettings.from(given, Map.of()).forScenario(100).scenarioModules()).containsExactly("cacheable-loop", "redis-hash-repository");
    }

    @Test
    void theClusterScenarioUsesTheClusterOfTheEnvironmentUnlessOneIsGiven() {
        Map<String, String> environment = Map.of("REDIS_CLUSTER_NODES", "10.0.0.1:6379,10.0.0.2:6379");
        assertThat(BenchmarkSettings.from(new Properties(), environment).redisClusterNodes()).isEqualTo("10.0.0.1:6379,10.0.0.2:6379");

        Properties given = new Properties();
        given.setProperty("benchmark.redisClusterNodes", "10.0.0.3:6379");
        BenchmarkSettings settings = BenchmarkSettings.from(given, environment);
        assertThat(settings.redisClusterNodes()).isEqualTo("10.0.0.3:6379");
        assertThat(settings.embeddedRedisCluster()).isFalse();
    }

    @Test
    void refusesARampUpThatLeavesNothingToMeasure() {
        Properties given = new Properties();
        given.setProperty("benchmark.duration", "5");
        given.setProperty("benchmark.rampup", "5");

        assertThatThrownBy(() -> BenchmarkSettings.from(given, Map.of())).hasMessageContaining("must be shorter");
    }

    @Test
    void theRoundsAreSplitOverTheForksInBlocksAndAScenarioRunsOne() {
        BenchmarkSettings full = BenchmarkSettings.from(new Properties(), Map.of());
        assertThat(full.forks()).isEqualTo(2);
        assertThat(full.roundsOf(1)).containsExactly(1, 2, 3, 4);
        assertThat(full.roundsOf(2)).containsExactly(5, 6, 7, 8);
        assertThat(full.forkOf(4)).isEqualTo(1);
        assertThat(full.forkOf(5)).isEqualTo(2);
        assertThat(full.forScenario(10).forks()).isEqualTo(1);

        Properties three = new Properties();
        three.setProperty("benchmark.forks", "3");
        BenchmarkSettings uneven = BenchmarkSettings.from(three, Map.of());
        assertThat(java.util.stream.IntStream.rangeClosed(1, 3).mapToObj(uneven::roundsOf)).extracting(java.util.List::size)
                .containsExactly(3, 3, 2);

        Properties one = new Properties();
        one.setProperty("benchmark.repetitions", "1");
        assertThat(BenchmarkSettings.from(one, Map.of()).forks()).as("unset: no more forks than rounds").isEqualTo(1);
        one.setProperty("benchmark.forks", "2");
        assertThatThrownBy(() -> BenchmarkSettings.from(one, Map.of())).hasMessageContaining("benchmark.forks (2) cannot exceed");
        assertThat(BenchmarkSettings.from(quickProperties(), Map.of()).forks()).isEqualTo(1);
    }

    private static Properties quickProperties() {
        Properties quick = new Properties();
        quick.setProperty("benchmark.quick", "true");
        return quick;
    }
}
