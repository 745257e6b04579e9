package dev.colorbench.mgetfloor;

import java.net.http.HttpResponse;

import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.testkit.EmbeddedRedis;
import dev.colorbench.testkit.LocalHttp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.UnifiedJedis;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pool of Jedis connections is the floor's own queue: a read that finds it empty for its 200 ms is Redis
 * unavailable, a 503 problem, as a stalled Redis is; never a 500. One connection here, held by the test.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = { "spring.data.redis.jedis.pool.max-active=1",
        "spring.data.redis.jedis.pool.max-idle=1" })
@DirtiesContext
class MgetFloorPoolTest {

    private static final EmbeddedRedis REDIS = EmbeddedRedis.start();

    @LocalServerPort
    private int port;

    @Autowired
    private JedisConnectionFactory connectionFactory;

    @DynamicPropertySource
    static void redisUrl(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.url", REDIS::url);
    }

    @AfterAll
    static void stopRedis() {
        REDIS.stop();
    }

    @Test
    void aReadThatFindsThePoolEmptyIsA503ProblemAndTheNextOneIsServed() {
        assertThat(LocalHttp.get(port, "/colors").body()).isEqualTo(ColorJson.palette());
        UnifiedJedis client;
        try (RedisConnection connection = connectionFactory.getConnection()) {
            client = (UnifiedJedis) connection.getNativeConnection();
        }

        try (AbstractPipeline holdingTheOnlyConnection = client.pipelined()) {
            HttpResponse<String> refused = LocalHttp.get(port, "/colors");

            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        }
        assertThat(LocalHttp.get(port, "/colors").body()).isEqualTo(ColorJson.palette());
    }
}
