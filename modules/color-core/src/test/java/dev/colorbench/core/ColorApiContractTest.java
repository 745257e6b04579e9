package dev.colorbench.core;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
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
 * The contract every module serves, against a real Redis. Each module has a one-line subclass
 * that names what one {@code GET /colors} costs in Redis commands, and this class proves it by
 * counting them from outside the application with {@code INFO commandstats}.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
public abstract class ColorApiContractTest {


    private static final String FOREIGN_KEY = "someone-else:" + UUID.randomUUID();

    private static final String FOREIGN_VALUE = "must survive every test";

    private static RedisClient redisClient;

    private static StatefulRedisConnection<String, String> redis;

    private final Map<String, Long> commandsPerFullRead;

    @LocalServerPort
    private int port;

    @Autowired
    private ObjectProvider<ColorSeeder> seeder;

    /** @param commandsPerFullRead the Redis commands one {@code GET /colors} issues, by name */
    protected ColorApiContractTest(Map<String, Long> commandsPerFullRead) {
        this.commandsPerFullRead = commandsPerFullRead;
    }

    @DynamicPropertySource
    static void redisUrl(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.url", TestRedis::url);
    }

    @BeforeAll
    static void connectAndPlantAForeignKey() {
        redisClient = RedisClient.create(TestRedis.url());
        redis = redisClient.connect();
        redis.sync().set(FOREIGN_KEY, FOREIGN_VALUE);
    }

    /** Whatever the tests did, someone else's key survives and nothing wide-reaching ran. */
    @AfterAll
    static void foreignDataIsIntactAndNoWideCommandRan() {
        try {
            assertThat(redis.sync().get(FOREIGN_KEY)).isEqualTo(FOREIGN_VALUE);
            if (TestRedis.isOwn()) {
                assertThat(RedisCommandStats.parse(redis.sync().info("commandstats")))
                        .doesNotContainKeys("flushall", "flushdb", "keys", "scan");
            }
            redis.sync().del(FOREIGN_KEY);
        }
        finally {
            redis.close();
            redisClient.shutdown();
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
        long keys = redis.sync().dbsize();

        seeder.ifAvailable(ColorSeeder::seed);

        assertThat(redis.sync().dbsize()).isEqualTo(keys);
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());
    }

    @Test
    void oneFullReadCostsExactlyTheDocumentedRedisCommands() {
        get("/colors");
        try (RedisCommandStats stats = RedisCommandStats.connect(TestRedis.url())) {
            Map<String, Long> issued = stats.during(() -> assertThat(get("/colors").statusCode()).isEqualTo(200));

            assertThat(issued).isEqualTo(commandsPerFullRead);
        }
    }


    /**
     * Hostile and malformed requests, in the manner of TechEmpower's bad-parameter table: each
     * gets its documented 4xx with a problem body, none a 500, and none costs a Redis command.
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
    void badInputGetsItsDocumented4xxProblemAndNeverReachesRedis(String method, String target, String accept, int status) {
        try (RedisCommandStats stats = RedisCommandStats.connect(TestRedis.url())) {
            HttpResponse<String>[] response = new HttpResponse[1];
            Map<String, Long> issued = stats.during(() -> response[0] = send(method, target, accept));

            assertProblem(response[0], status);
            assertThat(issued).as("Redis commands for a rejected request").isEmpty();
        }
    }

    @Test
    void onlyHealthAndInfoAreExposed() {
        assertThat(get("/actuator/health").statusCode()).isEqualTo(200);
        assertThat(get("/actuator/env").statusCode()).isEqualTo(404);
        assertThat(get("/actuator/configprops").statusCode()).isEqualTo(404);
        assertThat(get("/actuator/heapdump").statusCode()).isEqualTo(404);
    }

    /** A connection of the test's own to the Redis the module uses. */
    protected static RedisCommands<String, String> redis() {
        return redis.sync();
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
