package dev.colorbench.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
        assertThat(full.warmupTogetherSeconds()).isEqualTo(20);
        assertThat(full.forScenario(10).warmupSeconds()).as("a scenario's figures as warm as the headline's").isEqualTo(12);
        assertThat(full.forScenario(10).warmupCompilingSeconds()).isEqualTo(100);
        assertThat(full.forScenario(10).warmupTogetherSeconds()).isEqualTo(20);
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

    @Test
    void aKnobThatIsNotInTheTableStopsTheRunNamingTheNearestAndEveryKnob() {
        Properties typo = new Properties();
        typo.setProperty("benchmark.modlues", "near-cache");

        assertThatThrownBy(() -> BenchmarkSettings.from(typo, Map.of())).as("a typo would otherwise run every row for an hour")
                .hasMessageContaining("benchmark.modlues is not a knob: did you mean benchmark.modules?")
                .hasMessageContaining("benchmark.scenarioModules").hasMessageContaining("benchmark.fleetRate");
        assertThat(Knobs.nearest("warmupCompilng")).isEqualTo("warmupCompiling");
        assertThat(Knobs.nearest("Repetitons")).as("case and a dropped letter").isEqualTo("repetitions");
        assertThat(Knobs.nearest("jmeterwarmpu")).as("swapped letters").isEqualTo("jmeterWarmup");
        Properties far = new Properties();
        far.setProperty("benchmark.colour", "red");
        assertThat(Knobs.problems(far)).first().isEqualTo("benchmark.colour is not a knob, nor near one");
    }

    @Test
    void theBuildsCheckReadsTheSystemPropertiesWhereMavenPutsEveryD() {
        new Knobs.InBuild().execute();
        System.setProperty("benchmark.modlues", "near-cache");
        try {
            assertThatThrownBy(() -> new Knobs.InBuild().execute()).hasMessageContaining("did you mean benchmark.modules?");
        }
        finally {
            System.clearProperty("benchmark.modlues");
        }
    }

    /**
     * The Maven wrapper refuses a knob that is not in the table before Maven starts, so a typo costs no build; every knob of the
     * table, and a gone one that Knobs explains, passes it to Maven.
     */
    @Test
    void theWrapperRefusesATypoWithinASecondAndPassesEveryKnob() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(System.getProperty("os.name").startsWith("Windows"), "mvnw.cmd has no such check");
        long start = System.nanoTime();
        Process typo = new ProcessBuilder("sh", "../mvnw", "-Dbenchmark.modlues=x", "-Pbenchmark", "verify").redirectErrorStream(true).start();
        String said = new String(typo.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(typo.waitFor()).isEqualTo(1);
        assertThat(System.nanoTime() - start).as("within a second").isLessThan(1_000_000_000L);
        assertThat(said).startsWith("benchmark.modlues is not a knob.").contains(" benchmark.modules ", " benchmark.cpus ").doesNotContain("Apache Maven");

        List<String> every = new java.util.ArrayList<>(List.of("sh", "../mvnw", "-D", "benchmark.modules=x", "-Dbenchmark.scenarioWarmup"));
        Knobs.all().forEach(knob -> every.add("-Dbenchmark." + knob.name() + "=x"));
        every.add("--version");
        Process known = new ProcessBuilder(every).redirectErrorStream(true).start();
        assertThat(new String(known.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)).contains("Apache Maven");
        assertThat(known.waitFor()).isZero();
    }

    @Test
    void aValueItsKnobDoesNotTakeStopsTheRunAndABlankOneIsUnset() {
        Properties given = new Properties();
        given.setProperty("benchmark.threads", "ten");
        given.setProperty("benchmark.cpus", "half");
        assertThatThrownBy(() -> BenchmarkSettings.from(given, Map.of()))
                .hasMessageContaining("benchmark.threads must be a whole number above 0, was 'ten'")
                .hasMessageContaining("benchmark.cpus must be shared or split, was 'half'");

        Properties blank = new Properties();
        blank.setProperty("benchmark.threads", " ");
        assertThat(BenchmarkSettings.from(blank, Map.of()).threads()).isEqualTo(10);
    }

    @Test
    void everyKnobOfTheTableIsAccepted() {
        // the knobs whose default is unset, each with a value a user would give
        Map<String, String> examples = Map.ofEntries(Map.entry("modules", "in-memory,template-mget+virtual"), Map.entry("seed", "4110032433253066380"),
                Map.entry("redisUrl", "redis://127.0.0.1:6379"), Map.entry("servers", "redis://127.0.0.1:6390,/usr/bin/valkey-server"),
                Map.entry("redisClusterNodes", "127.0.0.1:7000,127.0.0.1:7001"), Map.entry("databaseUrl", "jdbc:postgresql://127.0.0.1/colors"),
                Map.entry("keys", "400"), Map.entry("valueBytes", "2048"), Map.entry("redisRoundTrip", "1ms"),
                Map.entry("javaHome", System.getProperty("java.home")), Map.entry("fleetRate", "5_000"));
        Properties all = new Properties();
        for (Knobs.Knob knob : Knobs.all()) {
            String value = knob.fullDefault().isEmpty() ? examples.get(knob.name()) : knob.fullDefault();
            assertThat(value).as("an example of benchmark." + knob.name()).isNotNull();
            all.setProperty(Knobs.PREFIX + knob.name(), value);
            if (!knob.fullDefault().isEmpty()) {
                Properties one = new Properties();
                one.setProperty(Knobs.PREFIX + knob.name(), value);
                assertThat(BenchmarkSettings.from(one, Map.of())).as("benchmark.%s=%s alone", knob.name(), value).isNotNull();
            }
        }
        assertThat(Knobs.problems(all)).isEmpty();
    }

    @Test
    void theReadmesKnobsTableIsTheTableOfKnobs() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("README.md"));
        int heading = lines.indexOf("### Knobs (`-Dbenchmark.<name>=...`)");
        assertThat(heading).as("benchmark/README.md's knobs heading").isNotNegative();
        int start = lines.subList(heading, lines.size()).indexOf("| name | default | quick mode | meaning |") + heading;
        int end = start;
        while (end < lines.size() && lines.get(end).startsWith("|")) {
            end++;
        }
        assertThat(String.join("\n", lines.subList(start, end)))
                .as("benchmark/README.md's knobs table is not Knobs.java's. Change the knob in Knobs.java, then, from the repository root, "
                        + "replace the README's table with the output of: java benchmark/src/main/java/dev/colorbench/benchmark/Knobs.java --readme")
                .isEqualTo(Knobs.readmeTable());
    }

    private static Properties quickProperties() {
        Properties quick = new Properties();
        quick.setProperty("benchmark.quick", "true");
        return quick;
    }
}
