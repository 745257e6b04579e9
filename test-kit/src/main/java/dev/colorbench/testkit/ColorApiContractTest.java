package dev.colorbench.testkit;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.colorbench.core.ColorSeeder;
import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.ColorNames;
import dev.colorbench.core.palette.Palette;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract every module serves, against a real store. Each module has a one-line subclass
 * that names its store and what one {@code GET /colors} costs there (Redis commands by name, or
 * SQL statements by normalized text), and this class proves it by counting that work from outside
 * the application ({@code INFO commandstats}, {@code pg_stat_statements}; see {@link TestStore}).
 *
 * <p>One instance serves all of a subclass's tests, so that it holds one connection to the store for
 * them; the module's context is Spring's, cached across test classes as usual.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@TestInstance(Lifecycle.PER_CLASS)
public abstract class ColorApiContractTest {

    private final TestStore store;

    private final Map<String, Long> workPerFullRead;

    @LocalServerPort
    private int port;

    @Autowired
    private ObjectProvider<ColorSeeder> seeder;

    /**
     * A module that reads Redis.
     *
     * @param commandsPerFullRead the Redis commands one {@code GET /colors} issues, by name
     */
    protected ColorApiContractTest(Map<String, Long> commandsPerFullRead) {
        this(TestStore.redis(), commandsPerFullRead);
    }

    /**
     * @param store the store the module reads
     * @param workPerFullRead what one {@code GET /colors} costs there, by name (see {@link TestStore})
     */
    protected ColorApiContractTest(TestStore store, Map<String, Long> workPerFullRead) {
        this.store = store;
        this.workPerFullRead = workPerFullRead;
    }

    /**
     * Both servers are offered, lazily: a module binds only the properties of the store it is built
     * with, so only that server is started (the first time a module of this JVM asks for it).
     */
    @DynamicPropertySource
    static void storeUrls(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.url", TestRedis::url);
        registry.add("spring.datasource.url", TestPostgres::jdbcUrl);
    }

    @BeforeAll
    void connectAndLeaveSomeoneElsesData() {
        store.open();
    }

    /** Whatever the tests did, someone else's data survives and nothing wide-reaching ran. */
    @AfterAll
    void othersDataIsIntactAndNothingWideRan() {
        try {
            store.assertOthersDataIntactAndNothingWideRan();
        }
        finally {
            store.close();
        }
    }

    @Test
    void servesTheWholePaletteAsTheCanonicalJson() {
        HttpResponse<String> response = get("/colors");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));
        assertThat(response.body()).isEqualTo(ColorJson.palette());
    }

    @Test
    void servesOneColorWhateverTheCaseOfItsName() {
        HttpResponse<String> response = get("/colors/RebeccaPurple");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(ColorJson.of(Palette.find("rebeccapurple").orElseThrow()));
    }

    @Test
    void servesASubsetInTheOrderAskedDuplicatesIncluded() {
        HttpResponse<String> response = get("/colors?names=tomato,AliceBlue,teal,tomato");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(ColorJson.of(Palette.colors(List.of("tomato", "aliceblue", "teal", "tomato"))));
    }

    @Test
    void servesAllNamesAskedForAtOnce() {
        HttpResponse<String> response = get("/colors?names=" + String.join(",", Palette.names()));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(ColorJson.palette());
    }

    @Test
    void anUnknownColorIsA404ProblemNamingIt() {
        HttpResponse<String> response = get("/colors/notacolor");

        assertProblem(response, 404);
        assertThat(response.body()).contains("notacolor");
    }

    @Test
    void aSubsetWithUnknownNamesIsA404ProblemNamingEachOfThem() {
        HttpResponse<String> response = get("/colors?names=red,nope,blue,nada");

        assertProblem(response, 404);
        assertThat(response.body()).contains("\"unknownNames\":[\"nope\",\"nada\"]");
    }

    @ParameterizedTest
    @ValueSource(strings = { "", ",", "red,,blue", "red,", "re$d", "red blue", "1red", "rot-weiss",
            "averyveryverylongnamethatisnocolor" })
    void aMalformedNameIsA400Problem(String names) {
        assertProblem(get("/colors?names=" + URLEncoder.encode(names, StandardCharsets.UTF_8)), 400);
    }

    @Test
    void moreThanTheMostNamesAllowedIsA400Problem() {
        String names = String.join(",", Collections.nCopies(ColorNames.MAX_NAMES + 1, "red"));

        HttpResponse<String> response = get("/colors?names=" + names);

        assertProblem(response, 400);
        assertThat(response.body()).contains("At most 1000 names");
    }

    @Test
    void exactlyTheMostNamesAllowedIsServed() {
        String names = String.join(",", Collections.nCopies(ColorNames.MAX_NAMES, "red"));

        assertThat(get("/colors?names=" + names).statusCode()).isEqualTo(200);
    }

    @Test
    void seedingAgainKeepsTheSameKeysAndData() {
        seeder.ifAvailable(ColorSeeder::seed);
        long footprint = store.footprint();

        seeder.ifAvailable(ColorSeeder::seed);

        assertThat(store.footprint()).isEqualTo(footprint);
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());
    }

    @Test
    void oneFullReadCostsExactlyTheDocumentedWorkInItsStore() {
        warmUp();
        TestStore.Work work = store.during(() -> assertThat(get("/colors").statusCode()).isEqualTo(200));

        assertThat(work.byName()).isEqualTo(workPerFullRead);
        if (work.roundTrips() != null) {
            assertRoundTrips(work.roundTrips(), work.count());
        }
    }

    /**
     * Brings the module to the state whose cost is counted: one full read. A module that keeps a copy which Redis
     * invalidates over another connection than the one it reads on overrides it: an earlier test's writes (seeding
     * again) can be invalidated after that read, and the read counted then refills the copy.
     */
    protected void warmUp() {
        get("/colors");
    }

    /**
     * The warm-up of a module whose copy Redis invalidates over another connection than the one it reads on: reads until
     * one full read costs the store nothing, for {@code within} at most. The invalidations of an earlier test's writes
     * (seeding again) can land after one read and take out what it kept.
     */
    protected final void warmUpUntilAReadCostsNothing(Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (workDuring(() -> get("/colors")).count() > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }

    /**
     * The round trips (socket reads Redis served) one {@code GET /colors} may cost. By default one
     * per command, as when the client waits for each answer before it sends the next command; a
     * module that sends several commands before it waits says here what it costs instead.
     */
    protected void assertRoundTrips(long roundTrips, long commands) {
        assertThat(roundTrips).as("round trips of one GET /colors").isEqualTo(commands);
    }


    /**
     * Hostile and malformed requests, in the manner of TechEmpower's bad-parameter table: each
     * gets its documented 4xx with a problem body, none a 500, and none costs any work in the store.
     */
    static Stream<Arguments> badRequests() {
        String hundredKilobytes = "a".repeat(100 * 1024);
        String manyNames = String.join(",", Collections.nCopies(25_000, "red"));
        return Stream.of(
                Arguments.of("GET", "/colors?names=", null, 400),
                Arguments.of("GET", "/colors?names=%20", null, 400),
                Arguments.of("GET", "/colors?names=red%0D%0AFLUSHALL", null, 400),
                Arguments.of("GET", "/colors?names=red%0D%0A*1%0D%0A%248%0D%0AFLUSHALL", null, 400),
                Arguments.of("GET", "/colors?names=*", null, 400),
                Arguments.of("GET", "/colors?names=%3F", null, 400),
                Arguments.of("GET", "/colors?names=re%5Bd%5D", null, 400),
                Arguments.of("GET", "/colors?names=colors%3A%3Av3%3A%3Ared", null, 400),
                Arguments.of("GET", "/colors?names=red%00", null, 400),
                Arguments.of("GET", "/colors?names=rouge%C3%A9", null, 400),
                Arguments.of("GET", "/colors?names=%F0%9F%8E%A8", null, 400),
                Arguments.of("GET", "/colors?names=%2572ed", null, 400),
                Arguments.of("GET", "/colors?names=..%2F..%2Fetc%2Fpasswd", null, 400),
                Arguments.of("GET", "/colors?names=" + "a".repeat(33), null, 400),
                Arguments.of("GET", "/colors?names=" + hundredKilobytes, null, 400),
                Arguments.of("GET", "/colors?names=" + manyNames, null, 400),
                Arguments.of("GET", "/colors/*", null, 400),
                Arguments.of("GET", "/colors/re%20d", null, 400),
                Arguments.of("GET", "/colors/..%252F..%252Fetc%252Fpasswd", null, 400),
                Arguments.of("GET", "/colors/..%2F..%2Fetc%2Fpasswd", null, 400),
                Arguments.of("GET", "/colors/red%5C..%5C..%5Cetc", null, 400),
                Arguments.of("GET", "/colors/" + hundredKilobytes, null, 400),
                Arguments.of("GET", "/colors/nope", null, 404),
                Arguments.of("GET", "/colors?names=red,nope", null, 404),
                Arguments.of("GET", "/colors/red/extra", null, 404),
                Arguments.of("GET", "/colorz", null, 404),
                Arguments.of("POST", "/colors", null, 405),
                Arguments.of("PUT", "/colors/red", null, 405),
                Arguments.of("DELETE", "/colors/red", null, 405),
                Arguments.of("GET", "/colors", "application/xml", 406));
    }

    @ParameterizedTest(name = "{0} {1} (Accept {2}) -> {3}")
    @MethodSource("badRequests")
    void badInputGetsItsDocumented4xxProblemAndNeverReachesTheStore(String method, String target, String accept, int status) {
        HttpResponse<String>[] response = new HttpResponse[1];
        TestStore.Work work = store.during(() -> response[0] = send(method, target, accept));

        assertProblem(response[0], status);
        assertThat(work.byName()).as("work in the store for a rejected request").isEmpty();
    }

    @Test
    void onlyHealthAndInfoAreExposed() {
        assertThat(get("/actuator/health").statusCode()).isEqualTo(200);
        assertThat(get("/actuator/env").statusCode()).isEqualTo(404);
        assertThat(get("/actuator/configprops").statusCode()).isEqualTo(404);
        assertThat(get("/actuator/heapdump").statusCode()).isEqualTo(404);
    }

    /** A connection of the test's own to the Redis the module uses (a module that reads Redis). */
    protected RedisCommands<String, String> redis() {
        if (!(store instanceof RedisTestStore redis)) {
            throw new IllegalStateException("This module's store is not Redis");
        }
        return redis.commands();
    }

    /** What the module's store did while {@code action} ran, counted as in the contract. */
    protected TestStore.Work workDuring(Runnable action) {
        return store.during(action);
    }

    protected HttpResponse<String> get(String pathAndQuery) {
        return send("GET", pathAndQuery, null);
    }

    private HttpResponse<String> send(String method, String pathAndQuery, String accept) {
        return LocalHttp.send(port, method, pathAndQuery, accept);
    }

    protected static void assertProblem(HttpResponse<String> response, int status) {
        assertThat(response.statusCode()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.body()).contains("\"status\":" + status).doesNotContain("Exception").doesNotContain("\tat ");
    }
}
