package dev.colorbench.core;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
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

    private static final HttpClient HTTP = HttpClient.newHttpClient();

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
    static void connect() {
        redisClient = RedisClient.create(TestRedis.url());
        redis = redisClient.connect();
    }

    @AfterAll
    static void disconnect() {
        redis.close();
        redisClient.shutdown();
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


    /** A connection of the test's own to the Redis the module uses. */
    protected static RedisCommands<String, String> redis() {
        return redis.sync();
    }

    protected HttpResponse<String> get(String pathAndQuery) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + pathAndQuery)).build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        }
        catch (IOException ex) {
            throw new AssertionError("GET " + pathAndQuery + " failed", ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new AssertionError(ex);
        }
    }

    protected static void assertProblem(HttpResponse<String> response, int status) {
        assertThat(response.statusCode()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.body()).contains("\"status\":" + status).doesNotContain("Exception").doesNotContain("\tat ");
    }
}
