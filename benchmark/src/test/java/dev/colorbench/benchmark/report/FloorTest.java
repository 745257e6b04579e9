package dev.colorbench.benchmark.report;

import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Json;
import dev.colorbench.benchmark.modules.Layout;
import dev.colorbench.benchmark.modules.PatternModule;
import dev.colorbench.benchmark.modules.Role;
import dev.colorbench.benchmark.modules.Store;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.results.FloorReading;
import dev.colorbench.benchmark.results.JMeterResults;
import dev.colorbench.benchmark.run.Verification;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The floor is measured by the harness in each round, so no row's figure depends on which rows ran (issue 57): here a run of
 * four rounds in two forks, the machine slower in some rounds than in others, written as JMeter records it.
 */
class FloorTest {

    /** How much slower the machine is in each round: every figure of the round moves by it. */
    private static final double[] DRIFT = { 1.0, 1.1, 0.95, 1.2 };

    private static final Target CEILING = target("in-memory", Role.CEILING, Store.NONE);

    private static final Target LIST = target("cacheable-list", Role.REDIS_PATTERN, Store.REDIS);

    private static final Target MGET_FLOOR = target("mget-floor", Role.REDIS_PATTERN, Store.REDIS);

    /** CPU µs per request, module and store, of each row in a round without drift; the harness's GET and MGET in µs of Redis. */
    private static final Map<String, double[]> CPU = Map.of("in-memory", new double[] { 60, 0 }, "cacheable-list", new double[] { 80, 20 },
            "mget-floor", new double[] { 130, 35 });

    private static final double GET = 20;

    private static final double MGET = 33;

    @TempDir
    Path folder;

    @Test
    void theFloorIsTheCeilingsCpuPlusTheLesserOfTheHarnesssTwoCommandsInEachRound() throws Exception {
        Summaries.Rows rows = summaries(results(true), CEILING, LIST, MGET_FLOOR);

        Floor floor = rows.floor();
        for (int round = 1; round <= DRIFT.length; round++) {
            assertThat(floor.byRound().get(round)).as("round %d", round).isCloseTo((60 + GET) * DRIFT[round - 1], within(1e-6));
        }
        assertThat(floor.ceiling()).isEqualTo("in-memory");
        assertThat(floor.micros().estimate()).as("the geometric mean of the forks' means").isCloseTo(80 * geometricMean(), within(1e-6));
        assertThat(floor.getMicros().estimate()).isCloseTo(GET * geometricMean(), within(1e-6));
        assertThat(floor.mgetMicros().estimate()).isCloseTo(MGET * geometricMean(), within(1e-6));
        assertThat(floor.rounds()).extracting(Floor.Round::gets).containsOnly(50_000L);
        assertThat(floor.lesser()).isEqualTo("the GET in 4 of 4 rounds");
        assertThat(ratio(rows, "mget-floor")).as("165 µs over 80 in every round").isCloseTo(165 / 80.0, within(1e-9));
    }

    @Test
    void whichRowsRanDoesNotChangeTheFloorNorARowsRatioToIt() throws Exception {
        JMeterResults results = results(true);
        Summaries.Rows all = summaries(results, CEILING, LIST, MGET_FLOOR);
        Summaries.Rows withoutTheList = summaries(results, CEILING, MGET_FLOOR);
        Summaries.Rows otherOrder = summaries(results, MGET_FLOOR, CEILING);

        // by the old rule, the cheapest row's Redis work: cacheable-list's 20 µs with it, mget-floor's own 35 µs without it
        assertThat(withoutTheList.floor().byRound()).isEqualTo(all.floor().byRound()).isEqualTo(otherOrder.floor().byRound());
        assertThat(withoutTheList.floor().micros().estimate()).isCloseTo(all.floor().micros().estimate(), within(1e-9));
        assertThat(ratio(withoutTheList, "mget-floor")).isCloseTo(ratio(all, "mget-floor"), within(1e-9)).isCloseTo(165 / 80.0, within(1e-9));
        assertThat(ratio(all, "in-memory")).as("the ceiling lies below 1: it reads no Redis").isCloseTo(60 / 80.0, within(1e-9));
    }

    @Test
    void withoutTheCeilingTheRunHasNoFloorButKeepsWhatTheHarnessMeasured() throws Exception {
        Summaries.Rows rows = summaries(results(true), LIST, MGET_FLOOR);

        assertThat(rows.floor().micros()).isNull();
        assertThat(rows.floor().byRound()).isEmpty();
        assertThat(rows.floor().getMicros().estimate()).isCloseTo(GET * geometricMean(), within(1e-6));
        assertThat(rows.summaries()).allSatisfy(row -> assertThat(row.floorRatioInterval()).isNull());
        assertThat(rows.floor().sentence()).startsWith("The floor: none, without the ceiling's row.").contains("one GET of the whole palette, ");
    }

    @Test
    void aRunWithoutTheHarnesssMeasurementsHasNoFloorAndNoSentence() throws Exception {
        Summaries.Rows rows = summaries(results(false), CEILING, LIST, MGET_FLOOR);

        assertThat(rows.floor().micros()).isNull();
        assertThat(ratio(rows, "mget-floor")).isNull();
        assertThat(rows.floor().sentence()).isNull();
    }

    @Test
    void theReportSaysWhatTheFloorIsAndSummaryJsonHoldsItRoundByRound(@TempDir Path out) throws Exception {
        Summaries.Rows rows = summaries(results(true), CEILING, LIST, MGET_FLOOR);

        String sentence = rows.floor().sentence();
        // 80, 60, 20 and 33 µs times the drift's geometric mean, 1.058
        assertThat(sentence).startsWith("The floor: 85 (").contains(" µs of CPU a request (95 % interval): the ceiling's 63 (",
                "one GET of the whole palette, 21 (", "one MGET of its keys, 35 (", "The lesser was the GET in 4 of 4 rounds");
        var json = Json.MAPPER.readTree(Json.MAPPER.writeValueAsString(new Report.Summary(null, rows.summaries(), rows.floor(), Map.of())));
        assertThat(json.path("floor").path("micros").path("estimate").asDouble()).isCloseTo(80 * geometricMean(), within(1e-6));
        assertThat(json.path("floor").path("rounds")).hasSize(4);
        assertThat(json.path("floor").path("rounds").get(1).path("getMicros").asDouble()).isCloseTo(GET * 1.1, within(1e-6));
    }

    private static Double ratio(Summaries.Rows rows, String module) {
        return rows.summaries().stream().filter(row -> row.module().equals(module)).findFirst().orElseThrow().floorRatio();
    }

    /** The figure of a row whose rounds are 1 times the drift: the geometric mean of the two forks' geometric means. */
    private static double geometricMean() {
        double first = Math.sqrt(DRIFT[0] * DRIFT[1]);
        double second = Math.sqrt(DRIFT[2] * DRIFT[3]);
        return Math.sqrt(first * second);
    }

    private static Summaries.Rows summaries(JMeterResults results, Target... targets) {
        Properties properties = new Properties();
        properties.setProperty("benchmark.repetitions", String.valueOf(DRIFT.length));
        properties.setProperty("benchmark.forks", "2");
        properties.setProperty("benchmark.rampup", "0");
        BenchmarkSettings settings = BenchmarkSettings.from(properties, Map.of());
        Verification verification = new Verification("7.2", "embedded", List.of(
                new Verification.Check("in-memory", new Verification.Cost(Map.of(), 0, 0.0), null),
                new Verification.Check("cacheable-list", new Verification.Cost(Map.of("get", 1.0), 1, 1.0), null),
                new Verification.Check("mget-floor", new Verification.Cost(Map.of("mget", 1.0), 1, 1.0), null)));
        return Summaries.of(settings, List.of(targets), verification, List.of(), List.of(), results);
    }

    /**
     * Every row's closed-model runs, 10 requests each, with the CPU readings around them; and, where {@code floor}, the harness's
     * answer in each round: 50,000 GETs and 20,000 MGETs.
     */
    private JMeterResults results(boolean floor) throws Exception {
        Path file = folder.resolve("results-" + floor + ".csv");
        String[] header = { "timeStamp", "elapsed", "label", "responseCode", "responseMessage", "threadName", "dataType", "success", "failureMessage",
                "bytes", "sentBytes", "grpThreads", "allThreads", "URL", "Latency", "IdleTime", "Connect", "reading", "lag", "intended", "scheduled" };
        try (Writer writer = Files.newBufferedWriter(file); CSVPrinter csv = CSVFormat.DEFAULT.builder().setHeader(header).get().print(writer)) {
            long time = 1_000;
            double[] module = new double[1];
            double[] store = new double[1];
            for (int round = 1; round <= DRIFT.length; round++) {
                for (String row : List.of("in-memory", "cacheable-list", "mget-floor")) {
                    String label = row + "|throughput|" + round;
                    csv.printRecord(line(time, label + "|before|colorbench.cpu", cpu(module[0], store[0])));
                    for (int request = 0; request < 10; request++) {
                        csv.printRecord(line(time + request * 10, label, "null"));
                    }
                    module[0] += 10 * CPU.get(row)[0] * DRIFT[round - 1] / 1e6;
                    store[0] += 10 * CPU.get(row)[1] * DRIFT[round - 1] / 1e6;
                    csv.printRecord(line(time + 100, label + "|after|colorbench.cpu", cpu(module[0], store[0])));
                    time += 1_000;
                }
                if (floor) {
                    FloorReading reading = new FloorReading(round, new FloorReading.Work(50_000, 50_000 * GET * DRIFT[round - 1] / 1e6, 4),
                            new FloorReading.Work(20_000, 20_000 * MGET * DRIFT[round - 1] / 1e6, 4));
                    csv.printRecord(line(time, "floor|floor|" + round, Json.MAPPER.writeValueAsString(reading)));
                    time += 1_000;
                }
            }
        }
        return JMeterResults.read(file);
    }

    private static String cpu(double module, double store) {
        return Json.MAPPER.writeValueAsString(Map.of("name", "colorbench.cpu", "baseUnit", "seconds", "measurements",
                List.of(Map.of("statistic", "MODULE", "value", module), Map.of("statistic", "STORE", "value", store))));
    }

    private static List<Object> line(long time, String label, String reading) {
        List<Object> line = new ArrayList<>(List.of(time, 5, label, 200, "", "t 1-1", "text", true, "", 100, 100, 1, 1, "http://127.0.0.1/", 5, 0,
                0, reading, "null", "null", "null"));
        return line;
    }

    private static Target target(String id, Role role, Store store) {
        return new Target(id, new PatternModule(id, id, 8080, "MVC", role, store, null, false, Layout.JSON_STRINGS, null, null, List.of(), List.of()),
                Map.of());
    }
}
