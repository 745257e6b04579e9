package dev.colorbench.benchmark;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads each module's {@code http.server.requests} timer at the boundaries that
 * {@link ServerTiming#boundaries} plans, while JMeter runs. The plan's clock starts with the test,
 * which the supervisor learns from the first sample JMeter writes (its start time); a reading that
 * fails, or that comes so late it may no longer fall in its quiet gap, is recorded as missing.
 */
final class ServerTimingRecorder {

    /** Only {@code GET /colors}: the actuator's own requests and anything else are other meters' business. */
    private static final String METRIC_PATH = "/actuator/metrics/http.server.requests?tag=uri:/colors&tag=method:GET";

    private final RunFiles files;

    private final List<ScheduledRun> schedule;

    private final Map<PatternModule, URI> baseUris;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

    private final List<ServerTiming.Boundary> pending;

    private final Map<ServerTiming.Boundary, ServerTiming.Snapshot> taken = new HashMap<>();

    private final Map<PatternModule, ServerTiming.Snapshot> baseline = new EnumMap<>(PatternModule.class);

    private Long testStartMillis;

    ServerTimingRecorder(RunFiles files, Map<PatternModule, URI> baseUris) {
        this.files = files;
        this.schedule = Arrays.asList(Json.read(files.schedule(), ScheduledRun[].class));
        this.baseUris = baseUris;
        this.pending = new ArrayList<>(ServerTiming.boundaries(schedule));
    }

    /** Before the load: the reading for a module's first measured run when nothing reaches the module before it (no warm-up). */
    void takeBaseline() {
        baseUris.keySet().forEach(module -> baseline.put(module, read(module)));
        pending.removeIf(boundary -> {
            if (boundary.dueMillis() == null) {
                taken.put(boundary, baseline.get(boundary.module()));
                return true;
            }
            return false;
        });
    }

    /** Takes the readings that are due; called often by the supervisor's loop. */
    void poll() {
        if (testStartMillis == null) {
            testStartMillis = firstSampleStart();
            if (testStartMillis == null) {
                return;
            }
        }
        long now = System.currentTimeMillis();
        pending.removeIf(boundary -> {
            long due = testStartMillis + boundary.dueMillis();
            if (now < due) {
                return false;
            }
            // too late: the next group may already be sending, and a reading there would mix runs
            taken.put(boundary, now - due <= ServerTiming.LATE_TOLERANCE_MILLIS ? read(boundary.module()) : null);
            return true;
        });
    }

    /**
     * JMeter has finished the whole plan (the build asks to stop only after it): nothing sends any
     * more, so the readings still ahead of their time (the last run's) are taken now, then all are written.
     */
    void finish() {
        if (testStartMillis != null) {
            poll();
            for (ServerTiming.Boundary boundary : pending) {
                taken.put(boundary, read(boundary.module()));
            }
            pending.clear();
        }
        List<ServerTiming.Window> windows = new ArrayList<>();
        for (ScheduledRun run : schedule) {
            if (run.phase().measured()) {
                windows.add(new ServerTiming.Window(run.module().id(), run.phase().label(), run.repetition(),
                        reading(run, true), reading(run, false)));
            }
        }
        Json.write(files.serverTiming(), windows);
        long missing = windows.stream().filter(window -> window.meanMicros() == null).count();
        Supervisor.log("server-side timings read around %d measured runs%s".formatted(windows.size(),
                missing == 0 ? "" : ", " + missing + " missing (reported as missing, not as 0)"));
    }

    private ServerTiming.Snapshot reading(ScheduledRun run, boolean before) {
        return taken.entrySet().stream()
                .filter(entry -> entry.getKey().module() == run.module() && entry.getKey().phase() == run.phase()
                        && entry.getKey().repetition() == run.repetition() && entry.getKey().before() == before)
                .map(Map.Entry::getValue).filter(java.util.Objects::nonNull).findFirst().orElse(null);
    }

    private ServerTiming.Snapshot read(PatternModule module) {
        URI uri = baseUris.get(module).resolve(METRIC_PATH);
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofMillis(500)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                Supervisor.log("no server timing from " + module.id() + ": HTTP " + response.statusCode() + " for " + uri);
                return null;
            }
            return ServerTiming.Snapshot.parse(response.body());
        }
        catch (IOException | RuntimeException ex) {
            Supervisor.log("no server timing from " + module.id() + ": " + ex);
            return null;
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * The test's start in epoch milliseconds: the first sample's start time minus the planned start
     * of the group it belongs to (the first group sends at once, a throughput group after its delay).
     */
    private Long firstSampleStart() {
        var results = files.jmeterResults();
        if (!Files.exists(results)) {
            return null;
        }
        try (BufferedReader reader = Files.newBufferedReader(results, StandardCharsets.UTF_8)) {
            reader.readLine(); // header
            String line = reader.readLine();
            if (line == null) {
                return null;
            }
            String[] fields = line.split(",", 4);
            if (fields.length < 4) {
                return null;
            }
            String label = fields[2];
            return schedule.stream().filter(run -> run.label().equals(label)).findFirst()
                    .map(run -> Long.parseLong(fields[0]) - run.startSecond() * 1000L).orElse(null);
        }
        catch (IOException | NumberFormatException ex) {
            return null;
        }
    }
}
