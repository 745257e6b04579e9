package dev.colorbench.testkit;

import java.net.http.HttpResponse;

import dev.colorbench.core.palette.ColorJson;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A module pointed at a {@code rediss://} URL talks TLS to a Redis that speaks nothing else,
 * trusting its certificate through an ordinary Spring Boot SSL bundle.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@DirtiesContext
public abstract class RedisTlsContractTest {

    private static final TestCertificate CERTIFICATE = TestCertificate.forLoopback();

    private static final EmbeddedRedis REDIS = EmbeddedRedis.startTls(CERTIFICATE.files());

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void redisOverTls(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.url", REDIS::url);
        registry.add("spring.data.redis.ssl.bundle", () -> "test-redis");
        registry.add("spring.ssl.bundle.pem.test-redis.truststore.certificate", () -> "file:" + CERTIFICATE.files().certificate());
    }

    @AfterAll
    static void stopRedisAndRemoveTheCertificate() {
        REDIS.stop();
        CERTIFICATE.close();
    }

    @Test
    void servesTheWholePaletteFromARedisReachedOverTls() {
        assertThat(REDIS.url()).startsWith("rediss://");

        HttpResponse<String> response = LocalHttp.get(port, "/colors");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(ColorJson.palette());
    }
}
