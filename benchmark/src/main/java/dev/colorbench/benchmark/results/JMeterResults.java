package dev.colorbench.benchmark.results;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import dev.colorbench.benchmark.Json;
import dev.colorbench.benchmark.plan.Phase;
import dev.colorbench.benchmark.plan.RunKey;
import dev.colorbench.benchmark.plan.ServerMetric;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;

/**
 * JMeter's CSV results of the run, read by column name: the samples of each run's load, the
 * readings of the modules' meters around each measured run, the reasons samples failed, and the floor the harness
 * measured in each round.
 * Rows whose label the plan did not write are ignored; a row cut short when JMeter was stopped
 * is skipped.
 */
public final class JMeterResults {

    private static final CSVFormat FORMAT = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get();

    private final List<Path> files = new ArrayList<>();

    private final Map<RunKey, List<Sample>> load = new HashMap<>();

    private final Map<RunKey, Map<ServerMetric, ServerFigures.Reading>> before = new HashMap<>();

    private final Map<RunKey, Map<ServerMetric, ServerFigures.Reading>> after = new HashMap<>();

    private final Map<RunKey, Map<String, Long>> failures = new HashMap<>();

    private final Map<RunKey, List<Arrivals.Sent>> sentArrivals = new HashMap<>();

    private final Map<RunKey, Long> scheduledArrivals = new HashMap<>();

    /** What the harness measured of the floor's Redis work, by round ({@link FloorReading}). */
    private final Map<Integer, FloorReading> floor = new TreeMap<>();

    /** A figure the open model's pool recorded (µs, or a count); read for every sample of a run, so compiled once. */
    private static final java.util.regex.Pattern COUNT = java.util.regex.Pattern.compile("-?\\d+");

    private JMeterResults(Path file) {
        this.files.add(file);
    }

    public static JMeterResults read(Path file) {
        JMeterResults results = new JMeterResults(file);
        try (Reader reader = Files.newBufferedReader(file)) {
            for (CSVRecord record : FORMAT.parse(reader)) {
                if (record.isConsistent()) {
                    RunKey.parse(record.get("label")).ifPresent(labelled -> results.add(labelled, record));
                }
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot read JMeter's results " + file, ex);
        }
        return results;
    }

    private void add(RunKey.Labelled labelled, CSVRecord record) {
        if (labelled.run().phase() == Phase.FLOOR) {
            floorReading(record).ifPresent(reading -> floor.put(labelled.run().repetition(), reading));
            return;
        }
        if (labelled.isReading()) {
            String body = record.isMapped("reading") ? record.get("reading") : "";
            (labelled.before() ? before : after).computeIfAbsent(labelled.run(), key -> new EnumMap<>(ServerMetric.class))
                    .put(labelled.metric(), new ServerFigures.Reading(record.get("responseCode"), body));
            return;
        }
        boolean success = Boolean.parseBoolean(record.get("success"));
        long timestamp = Long.parseLong(record.get("timeStamp"));
        load.computeIfAbsent(labelled.run(), key -> new ArrayList<>()).add(new Sample(timestamp, Long.parseLong(record.get("elapsed")), success));
        // JMeter writes "null" for a sample whose thread group sets none of these: the closed model, the overload step's new clients
        if (isCount(record, "lag") && isCount(record, "intended") && isCount(record, "scheduled")) {
            long lagMicros = Long.parseLong(record.get("lag"));
            sentArrivals.computeIfAbsent(labelled.run(), key -> new ArrayList<>())
                    .add(new Arrivals.Sent(timestamp - lagMicros / 1000, lagMicros, Long.parseLong(record.get("intended")), success));
            scheduledArrivals.merge(labelled.run(), Long.parseLong(record.get("scheduled")), Math::max);
        }
        if (!success && labelled.run().phase().measured()) {
            failures.computeIfAbsent(labelled.run(), run -> new TreeMap<>()).merge(reason(record), 1L, Long::sum);
        }
    }

    /** The harness's answer to the floor's call; empty where the call failed or the answer is not one (the round then has no floor). */
    private static Optional<FloorReading> floorReading(CSVRecord record) {
        if (!record.get("responseCode").equals("200") || !record.isMapped("reading") || record.get("reading").isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Json.MAPPER.readValue(record.get("reading"), FloorReading.class));
        }
        catch (RuntimeException ex) {
            return Optional.empty();
        }
    }

    private static boolean isCount(CSVRecord record, String column) {
        return record.isMapped(column) && COUNT.matcher(record.get(column)).matches();
    }

    /**
     * The status and the first line of JMeter's message (an assertion's message goes on to quote
     * whole bodies); for a request that got no HTTP answer, the exception and its message.
     */
    private static String reason(CSVRecord record) {
        if (record.get("responseCode").startsWith("Non HTTP")) {
            return (record.get("responseCode") + " " + record.get("responseMessage").replace("Non HTTP response message: ", "- ")).strip();
        }
        String message = record.get("failureMessage").strip();
        int lineEnd = message.indexOf('\n');
        String firstLine = lineEnd < 0 ? message : message.substring(0, lineEnd).strip();
        return (record.get("responseCode") + " " + (firstLine.length() > 120 ? firstLine.substring(0, 120) + "..." : firstLine)).strip();
    }

    /** These results and {@code other}'s, of another JMeter run of the same rows: every run of both. */
    public JMeterResults and(JMeterResults other) {
        JMeterResults both = new JMeterResults(files.get(0));
        both.files.clear();
        for (JMeterResults each : List.of(this, other)) {
            both.files.addAll(each.files);
            each.load.forEach((run, samples) -> both.load.computeIfAbsent(run, key -> new ArrayList<>()).addAll(samples));
            each.before.forEach((run, readings) -> both.before.computeIfAbsent(run, key -> new EnumMap<>(ServerMetric.class)).putAll(readings));
            each.after.forEach((run, readings) -> both.after.computeIfAbsent(run, key -> new EnumMap<>(ServerMetric.class)).putAll(readings));
            each.failures.forEach((run, reasons) -> reasons.forEach((reason, count) ->
                    both.failures.computeIfAbsent(run, key -> new TreeMap<>()).merge(reason, count, Long::sum)));
            each.sentArrivals.forEach((run, sent) -> both.sentArrivals.computeIfAbsent(run, key -> new ArrayList<>()).addAll(sent));
            // a run's arrivals are scheduled once, whichever file holds its samples
            each.scheduledArrivals.forEach((run, scheduled) -> both.scheduledArrivals.merge(run, scheduled, Math::max));
            both.floor.putAll(each.floor);
        }
        return both;
    }

    /** What the harness measured of the floor's Redis work, by round; a round whose call failed is missing. */
    public Map<Integer, FloorReading> floor() {
        return java.util.Collections.unmodifiableMap(floor);
    }

        /** The samples of one run's load, in the order JMeter wrote them; none if it recorded none. */
    public List<Sample> samples(RunKey run) {
        return load.getOrDefault(run, List.of());
    }

    /**
     * What became of the arrivals of {@code run}, an open-model run of the pool: how many it scheduled, sent, served, failed
     * and dropped, and their latency from their due time (the plan's sample variables {@code scheduled}, {@code lag} and
     * {@code intended}); {@code droppedAtLeastMicros} is the least a dropped arrival waited. Null for a run that recorded
     * none of them.
     */
    public Arrivals arrivals(RunKey run, long droppedAtLeastMicros) {
        Long scheduled = scheduledArrivals.get(run);
        return scheduled == null ? null : Arrivals.of(scheduled, sentArrivals.getOrDefault(run, List.of()), droppedAtLeastMicros);
    }

    /** What the module measured of itself during {@code run}. */
    public ServerFigures server(RunKey run) {
        return ServerFigures.between(before.getOrDefault(run, Map.of()), after.getOrDefault(run, Map.of()));
    }

    /** Why the measured samples of a row failed, with how often, over all its runs. */
    public Map<String, Long> failures(String target) {
        Map<String, Long> reasons = new TreeMap<>();
        failures.forEach((run, each) -> {
            if (run.target().equals(target)) {
                each.forEach((reason, count) -> reasons.merge(reason, count, Long::sum));
            }
        });
        return reasons;
    }

    /** Why the samples of one measured run failed, with how often. */
    public Map<String, Long> failures(RunKey run) {
        return failures.getOrDefault(run, Map.of());
    }

    /**
     * Writes each row's measured samples as JMeter wrote them (of every run these results hold) to the file {@code destinations}
     * names for it, for its dashboard and the report's links: one pass over the results, however many rows.
     */
    public void writeMeasured(Map<String, Path> destinations) {
        Map<String, CSVPrinter> printers = new HashMap<>();
        List<Writer> writers = new ArrayList<>();
        try {
            for (Path file : files) {
                try (Reader reader = Files.newBufferedReader(file)) {
                    var records = FORMAT.parse(reader);
                    String[] header = records.getHeaderNames().toArray(String[]::new);
                    for (CSVRecord record : records) {
                        Optional<RunKey.Labelled> labelled = RunKey.parse(record.get("label"));
                        if (!record.isConsistent() || labelled.isEmpty() || labelled.get().isReading() || !labelled.get().run().phase().measured()) {
                            continue;
                        }
                        Path destination = destinations.get(labelled.get().run().target());
                        if (destination == null) {
                            continue;
                        }
                        CSVPrinter printer = printers.get(labelled.get().run().target());
                        if (printer == null) {
                            Files.createDirectories(destination.getParent());
                            Writer writer = Files.newBufferedWriter(destination);
                            writers.add(writer);
                            printer = CSVFormat.DEFAULT.builder().setHeader(header).get().print(writer);
                            printers.put(labelled.get().run().target(), printer);
                        }
                        printer.printRecord(record.values());
                    }
                }
            }
            for (CSVPrinter printer : printers.values()) {
                printer.flush();
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot write the rows' samples", ex);
        }
        finally {
            for (Writer writer : writers) {
                try {
                    writer.close();
                }
                catch (IOException ex) {
                    // closing the others anyway
                }
            }
        }
    }
}
