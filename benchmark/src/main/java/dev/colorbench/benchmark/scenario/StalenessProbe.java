package dev.colorbench.benchmark.scenario;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import dev.colorbench.benchmark.run.RunningModule;

/**
 * How long a row that keeps a copy goes on answering a color another writer changed: on a thread of its own, it takes
 * the writer's latest change, asks the row for that color until an answer carries it (or a later change of it), and
 * notes the delay from Redis's reply to the writer to that answer, its own HTTP round trip included; then the next
 * latest change. At a low rate it follows every change; at a high one, as many as it can, one after another. A change
 * not carried within {@link #GIVE_UP} is counted as stale and left. Every {@link #KEEP_WARM} it asks for the whole
 * palette too.
 */
final class StalenessProbe implements AutoCloseable {

    static final Duration GIVE_UP = Duration.ofSeconds(5);

    /**
     * How often the probe also asks for the whole palette, so that the copy holds every color whenever a change arrives,
     * loaded by JMeter or not: an invalidation the row missed then leaves a color stale until the check after the writes.
     */
    private static final Duration KEEP_WARM = Duration.ofMillis(20);

    /** One change followed: when Redis replied to the writer (epoch ms), and how long until the row answered it (ms; null: never). */
    record Followed(long writtenAtMillis, Double millis) {
    }

    private final RunningModule module;

    private final ColorWriter writer;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();

    private final List<Followed> followed = new ArrayList<>();

    private final Thread thread;

    private volatile boolean running = true;

    private StalenessProbe(RunningModule module, ColorWriter writer) {
        this.module = module;
        this.writer = writer;
        this.thread = new Thread(this::follow, "staleness of " + module.target().id());
        this.thread.setDaemon(true);
    }

    static StalenessProbe start(RunningModule module, ColorWriter writer) {
        StalenessProbe probe = new StalenessProbe(module, writer);
        probe.thread.start();
        return probe;
    }

    private void follow() {
        long lastFollowed = -1;
        long lastWhole = 0;
        HttpRequest whole = HttpRequest.newBuilder(URI.create(module.baseUri() + "/colors")).timeout(Duration.ofSeconds(2)).build();
        while (running) {
            if (System.nanoTime() - lastWhole > KEEP_WARM.toNanos()) {
                ask(whole);
                lastWhole = System.nanoTime();
            }
            ColorWriter.Change change = writer.latest();
            if (change == null || change.sequence() <= lastFollowed) {
                LockSupport.parkNanos(1_000_000);
                continue;
            }
            lastFollowed = change.sequence();
            HttpRequest request = HttpRequest.newBuilder(URI.create(module.baseUri() + "/colors/" + ColorWriter.name(change)))
                    .timeout(Duration.ofSeconds(2)).build();
            Double millis = null;
            while (running || millis == null) {
                String body = ask(request);
                long now = System.nanoTime();
                if (body != null && writer.carries(change, body)) {
                    millis = (now - change.repliedAtNanos()) / 1e6;
                    break;
                }
                if (now - change.repliedAtNanos() > GIVE_UP.toNanos()) {
                    break;
                }
            }
            synchronized (followed) {
                followed.add(new Followed(change.repliedAtMillis(), millis));
            }
        }
    }

    private String ask(HttpRequest request) {
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? response.body() : null;
        }
        catch (IOException ex) {
            return null;
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Every change followed so far. */
    List<Followed> followed() {
        synchronized (followed) {
            return List.copyOf(followed);
        }
    }

    /** Stops once the change under way is carried or given up. */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(GIVE_UP.toMillis() + 5_000);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
