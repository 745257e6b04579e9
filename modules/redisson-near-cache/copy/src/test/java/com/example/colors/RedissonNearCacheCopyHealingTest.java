package com.example.colors;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.colorbench.testkit.TestRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A key of another type, which GET answers with WRONGTYPE, beside the missing and unreadable values the contract checks. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@TestInstance(Lifecycle.PER_CLASS)
class RedissonNearCacheCopyHealingTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    private RedisClient client;

    private StatefulRedisConnection<String, String> connection;

    private String palette;

    @DynamicPropertySource
    static void redisUrl(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.url", TestRedis::url);
    }

    @BeforeAll
    void connect() throws IOException {
        client = RedisClient.create(TestRedis.url());
        connection = client.connect();
        try (InputStream in = getClass().getResourceAsStream("/dev/colorbench/testkit/copy/palette.json")) {
            palette = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @AfterAll
    void disconnect() {
        connection.close();
        client.shutdown();
    }

    @Test
    void aKeyOfAnotherTypeIsAnsweredAndWrittenOver() throws Exception {
        RedisCommands<String, String> redis = connection.sync();
        assertThat(colors()).isEqualTo(palette);
        String before = redis.get("colors::v3::teal");
        redis.del("colors::v3::teal");
        redis.hset("colors::v3::teal", "name", "teal");

        // the invalidation of teal reaches Redisson within a few ms
        await().atMost(Duration.ofSeconds(2)).untilAsserted(() -> {
            assertThat(colors()).isEqualTo(palette);
            assertThat(redis.type("colors::v3::teal")).isEqualTo("string");
            assertThat(redis.get("colors::v3::teal")).isEqualTo(before);
        });
    }

    private String colors() throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/colors")).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.body();
    }
}
