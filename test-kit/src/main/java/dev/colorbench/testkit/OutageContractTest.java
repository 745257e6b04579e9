package dev.colorbench.testkit;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a module does when its store is not there, goes away, comes back or stalls, whatever the
 * store: the story every store's outage contract tells ({@link RedisOutageContractTest},
 * {@link DatabaseOutageContractTest}). The test owns its server (never the one in {@code REDIS_URL}
 * or {@code DATABASE_URL}): it starts the module before the server exists, then starts, stops and
 * restarts it on the same port, and makes it stall. The server requires a password, which must then
 * appear in no log line and no endpoint. The steps run in order, as one story; a store's contract
 * adds its own steps between them (orders 10 to 60 here). A module that answers from a local copy
 * its store invalidates says so ({@link #answersFromALocalCopy()}).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@DirtiesContext
@TestMethodOrder(OrderAnnotation.class)
@ExtendWith(OutputCaptureExtension.class)
public abstract class OutageContractTest {

    /** The most a request may take to fail while the store is away or stalled. */
    protected static final Duration FAST_FAILURE = Duration.ofSeconds(1);

    /** How soon a module must serve again after its store returns. */
    protected static final Duration RECOVERY = Duration.ofSeconds(5);

    @LocalServerPort
    private int port;

    /** Starts the store's server on its port (again). */
    protected abstract void startStore();

    /** Stops the store's server at once: connections to it are closed. */
    protected abstract void stopStore();

    /**
     * Makes the running store stall for longer than the module waits (it is there but does not
     * answer in time) until the returned stall is ended.
     */
    protected abstract Stall stall() throws Exception;

    /** The password the module logs in with, which must never show. */
    protected abstract String password();

    /**
     * Whether the module answers from a local copy that its store invalidates (a near cache). Such a
     * module answers from its copy until it notices that the store is gone, by losing the connection
     * its invalidations arrive on: that must happen within {@link #FAST_FAILURE} of the store stopping,
     * and every answer until then must be the right one. A stalled store takes no writes either, so
     * while it stalls the copy is still what the store holds, and the module may answer from it, as
     * fast, instead of failing at its timeout.
     */
    protected boolean answersFromALocalCopy() {
        return false;
    }

    /** A stall of the store, ended by {@link #close()}. */
    @FunctionalInterface
    protected interface Stall extends AutoCloseable {

        @Override
        void close() throws Exception;
    }

    @Test
    @Order(10)
    void startsWithoutItsStoreAliveButNotReadyAndAnswers503Fast() {
        assertThat(get("/actuator/health/liveness").statusCode()).isEqualTo(200);
        assertThat(get("/actuator/health/readiness").statusCode()).isEqualTo(503);
        assertThat(get("/colors").statusCode()).as("the first request, which also loads the store's client").isEqualTo(503);
        assertFast503("/colors");
    }

    @Test
    @Order(20)
    void becomesReadyAndServesTheWholePaletteOnceItsStoreAppears() {
        startStore();

        awaitWithinRecovery("/actuator/health/readiness", response -> response.statusCode() == 200);
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());
    }

    @Test
    @Order(30)
    void anOutageIsA503WithinASecond() {
        get("/colors");
        stopStore();
        if (answersFromALocalCopy()) {
            awaitTheOutageNoticed("/colors");
        }

        assertFast503("/colors");
        assertFast503("/colors?names=red,blue");
        assertThat(get("/actuator/health/readiness").statusCode()).isEqualTo(503);
        assertThat(get("/actuator/health/liveness").statusCode()).isEqualTo(200);
    }

    /** Redis comes back empty; a database with the data it had. */
    @Test
    @Order(40)
    void servesTheWholePaletteWithin5SecondsOfItsStoreReturning() {
        startStore();

        HttpResponse<String> served = awaitWithinRecovery("/colors", response -> response.statusCode() == 200);

        assertThat(served.body()).isEqualTo(ColorJson.palette());
        assertThat(get("/colors?names=teal,red").body()).isEqualTo(ColorJson.of(Palette.colors(List.of("teal", "red"))));
    }

    @Test
    @Order(50)
    void aStalledStoreIsA503AtItsTimeoutThenServesAgain() throws Exception {
        try (Stall stall = stall()) {
            if (answersFromALocalCopy()) {
                assertFastAnswerFromTheCopyOr503("/colors");
            }
            else {
                assertFast503("/colors");
            }
        }
        HttpResponse<String> served = awaitWithinRecovery("/colors", response -> response.statusCode() == 200);
        assertThat(served.body()).isEqualTo(ColorJson.palette());
    }

    @Test
    @Order(60)
    void thePasswordAppearsInNoLogLineAndNoEndpoint(CapturedOutput output) {
        stopStore();
        get("/colors");
        startStore();
        awaitWithinRecovery("/colors", response -> response.statusCode() == 200);

        for (String path : new String[] { "/actuator", "/actuator/health", "/actuator/info", "/actuator/env",
                "/actuator/configprops", "/actuator/heapdump" }) {
            assertThat(get(path).body()).as(path).doesNotContain(password());
        }
        assertThat(get("/actuator/env").statusCode()).isEqualTo(404);
        assertThat(get("/actuator/configprops").statusCode()).isEqualTo(404);
        assertThat(output.getAll()).doesNotContain(password());
    }

    /** Right answers from the local copy, then, within {@link #FAST_FAILURE} of the store stopping, a 503. */
    private void awaitTheOutageNoticed(String path) {
        assertThat(LocalHttp.untilNoLongerFromTheCopy(this::get, path, FAST_FAILURE, ColorJson.palette()).statusCode())
                .as("%s within %s of the store stopping", path, FAST_FAILURE).isEqualTo(503);
    }

    /** The right palette from the local copy, or a 503 problem, within {@link #FAST_FAILURE}. */
    private void assertFastAnswerFromTheCopyOr503(String path) {
        long started = System.nanoTime();
        HttpResponse<String> response = get(path);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(took).as("GET %s took %s", path, took).isLessThanOrEqualTo(FAST_FAILURE);
        if (response.statusCode() == 200) {
            assertThat(response.body()).isEqualTo(ColorJson.palette());
        }
        else {
            assert503Problem(response);
        }
    }

    /** A request that must be refused with a 503 problem, within {@link #FAST_FAILURE}. */
    protected void assertFast503(String path) {
        long started = System.nanoTime();
        HttpResponse<String> response = get(path);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(took).as("GET %s took %s", path, took).isLessThanOrEqualTo(FAST_FAILURE);
        assert503Problem(response);
    }

    /** A 503 problem that says nothing of the exception or the password. */
    protected void assert503Problem(HttpResponse<String> response) {
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.body()).contains("\"status\":503").doesNotContain("Exception").doesNotContain(password());
    }

    /** Asks for {@code path} until {@code ready} holds, for at most {@link #RECOVERY}; meanwhile only 503s. */
    protected HttpResponse<String> awaitWithinRecovery(String path, Predicate<HttpResponse<String>> ready) {
        long deadline = System.nanoTime() + RECOVERY.toNanos();
        HttpResponse<String> response = get(path);
        while (!ready.test(response) && System.nanoTime() < deadline) {
            assertThat(response.statusCode()).as("while recovering, %s answers 503, never a wrong 200", path).isIn(200, 503);
            sleep(50);
            response = get(path);
        }
        assertThat(ready.test(response)).as("%s recovered within %s; last answer %s %s", path, RECOVERY,
                response.statusCode(), response.body()).isTrue();
        return response;
    }

    /** A GET that must answer at all, whatever state the store is in: no request may hang. */
    protected HttpResponse<String> get(String path) {
        return LocalHttp.get(port, path);
    }

    protected static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
