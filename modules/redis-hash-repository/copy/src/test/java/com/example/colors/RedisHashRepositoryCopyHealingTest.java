package com.example.colors;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import dev.colorbench.testkit.TestRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The healing the repository's layout needs beyond a missing or unreadable hash, which the contract checks: the cases
 * that fail the whole findAll() or leave a name out of it, each answered right and written back.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@TestInstance(Lifecycle.PER_CLASS)
class RedisHashRepositoryCopyHealingTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final RepositoryHashes stored = new RepositoryHashes();

    @LocalServerPort
    private int port;

    private RedisClient client;

    private StatefulRedisConnection<String, String> connection;

    private RedisCommands<String, String> redis;

    private String palette;

    @DynamicPropertySource
    static void redisUrl(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.url", TestRedis::url);
    }

    @BeforeAll
    void connect() throws IOException {
        client = RedisClient.create(TestRedis.url());
        connection = client.connect();
        redis = connection.sync();
        try (InputStream in = getClass().getResourceAsStream("/dev/colorbench/testkit/copy/palette.json")) {
            palette = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @AfterAll
    void disconnect() {
        connection.close();
        client.shutdown();
    }

    @BeforeEach
    void readOnce() throws Exception {
        assertThat(colors()).isEqualTo(palette);
    }

    @Test
    void aHashGoneWhileItsIdStaysIsWrittenBack() throws Exception {
        String before = stored.read(redis, "teal");
        redis.del("colors::v2:teal");

        assertThat(colors()).isEqualTo(palette);
        assertThat(stored.read(redis, "teal")).isEqualTo(before);
    }

    @Test
    void aWholeHashWhoseIdLeftTheSetIsServedAsItIsAndListedAgain() throws Exception {
        redis.hset("colors::v2:tomato", Map.of("hex", "#010203", "red", "1", "green", "2", "blue", "3"));
        redis.srem("colors::v2", "tomato");
        try {
            assertThat(colors()).contains("{\"name\":\"tomato\",\"hex\":\"#010203\",\"red\":1,\"green\":2,\"blue\":3}");
            assertThat(redis.sismember("colors::v2", "tomato")).isTrue();
            assertThat(redis.hget("colors::v2:tomato", "hex")).isEqualTo("#010203");
        }
        finally {
            redis.hset("colors::v2:tomato", Map.of("hex", "#ff6347", "red", "255", "green", "99", "blue", "71"));
        }
        assertThat(colors()).isEqualTo(palette);
    }

    @Test
    void anotherColorsFieldsAreWrittenOver() throws Exception {
        String before = stored.read(redis, "teal");
        redis.hset("colors::v2:teal", Map.of("name", "navy", "hex", "#000080", "red", "0", "green", "0", "blue", "128"));

        assertThat(colors()).isEqualTo(palette);
        assertThat(stored.read(redis, "teal")).isEqualTo(before);
    }

    @Test
    void aHashWithoutColorFieldsIsWrittenOver() throws Exception {
        String before = stored.read(redis, "teal");
        redis.del("colors::v2:teal");
        redis.hset("colors::v2:teal", Map.of("colour", "teal"));

        assertThat(colors()).isEqualTo(palette);
        assertThat(stored.read(redis, "teal")).isEqualTo(before);
    }

    @Test
    void aHashWithItsChannelsGoneIsWrittenOver() throws Exception {
        String before = stored.read(redis, "teal");
        redis.hdel("colors::v2:teal", "red", "green", "blue");

        assertThat(colors()).isEqualTo(palette);
        assertThat(stored.read(redis, "teal")).isEqualTo(before);
    }

    /** Spring Data maps a hash whose _class it cannot load as the repository's type: the copy and the module share a Redis. */
    @Test
    void aHashTheModuleWroteIsReadAsItIs() throws Exception {
        redis.hset("colors::v2:teal", "_class", "dev.colorbench.hashrepository.ColorHash");
        try {
            assertThat(colors()).isEqualTo(palette);
            assertThat(redis.hget("colors::v2:teal", "_class")).isEqualTo("dev.colorbench.hashrepository.ColorHash");
        }
        finally {
            redis.hset("colors::v2:teal", "_class", "com.example.colors.ColorHash");
        }
    }

    @Test
    void aKeyOfAnotherTypeIsWrittenOver() throws Exception {
        String before = stored.read(redis, "teal");
        redis.del("colors::v2:teal");
        redis.set("colors::v2:teal", "{\"name\":\"teal\"}");

        assertThat(colors()).isEqualTo(palette);
        assertThat(stored.read(redis, "teal")).isEqualTo(before);
    }

    @Test
    void anIdSetOfAnotherTypeIsWrittenAgainWithEveryId() throws Exception {
        List<String> ids = List.copyOf(redis.smembers("colors::v2"));
        redis.del("colors::v2");
        redis.set("colors::v2", "not a set");

        assertThat(colors()).isEqualTo(palette);
        assertThat(redis.smembers("colors::v2")).containsExactlyInAnyOrderElementsOf(ids);
    }

    private String colors() throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/colors")).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.body();
    }
}
