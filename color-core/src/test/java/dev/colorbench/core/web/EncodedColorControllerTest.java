package dev.colorbench.core.web;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import static dev.colorbench.core.web.ErrorProblems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A module that answers with bytes gets the same contract as one that answers with objects: its
 * bytes as {@code application/json}, names checked first, every error a problem body.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "spring.main.web-application-type=servlet")
class EncodedColorControllerTest {

    @LocalServerPort
    private int port;

    /** Serves the canonical bytes; fails as template-mget's store would when Redis is away for "blue". */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class EncodedStoreApplication {

        @Bean
        EncodedColorStore encodedStore() {
            return new EncodedColorStore() {

                @Override
                public byte[] findAll() {
                    return ColorJson.palette().getBytes(StandardCharsets.UTF_8);
                }

                @Override
                public byte[] findByNames(List<String> names) {
                    return ColorJson.of(Palette.colors(names)).getBytes(StandardCharsets.UTF_8);
                }

                @Override
                public byte[] findOne(String name) {
                    if (name.equals("blue")) {
                        throw ErrorProblems.connectionFailure();
                    }
                    return ColorJson.of(Palette.find(name).orElseThrow()).getBytes(StandardCharsets.UTF_8);
                }
            };
        }
    }

    @Test
    void servesTheStoresBytesAsJson() {
        HttpResponse<String> response = ErrorProblems.send(port, "GET", "/colors");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
        assertThat(response.headers().firstValue("Content-Length")).hasValue(String.valueOf(ColorJson.palette().length()));
        assertThat(response.body()).isEqualTo(ColorJson.palette());
    }

    @Test
    void checksNamesBeforeTheStoreSeesThem() {
        assertThat(ErrorProblems.send(port, "GET", "/colors/Tomato").body()).isEqualTo(ColorJson.of(Palette.find("tomato").orElseThrow()));
        assertThat(ErrorProblems.send(port, "GET", "/colors?names=teal,Red").body())
                .isEqualTo(ColorJson.of(Palette.colors(List.of("teal", "red"))));
        assertProblem(ErrorProblems.send(port, "GET", "/colors/nope"), 404);
        assertProblem(ErrorProblems.send(port, "GET", "/colors?names=r%20d"), 400);
    }

    @Test
    void errorsAreProblems() {
        assertProblem(ErrorProblems.send(port, "GET", "/colors/blue"), 503);
        assertProblem(ErrorProblems.send(port, "POST", "/colors"), 405);
    }
}
