package dev.colorbench.benchmark.run;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpServer;
import dev.colorbench.core.ColorJson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The verifier stands between a module and the load: it must refuse anything but the canonical palette. */
class AnswerVerifierTest {

    private final AnswerVerifier verifier = new AnswerVerifier();

    private HttpServer server;

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void acceptsTheCanonicalPalette() throws IOException {
        URI module = serve(200, ColorJson.palette());

        assertThatCode(() -> verifier.verify("template-mget", module)).doesNotThrowAnyException();
    }

    @Test
    void refusesAPaletteWithOneWrongColor() throws IOException {
        URI module = serve(200, ColorJson.palette().replace("\"#f0f8ff\"", "\"#f0f8fe\""));

        assertThatThrownBy(() -> verifier.verify("template-mget", module))
                .isInstanceOf(AnswerVerifier.WrongAnswerException.class)
                .hasMessageContaining("Module template-mget")
                .hasMessageContaining("#f0f8fe");
    }

    @Test
    void refusesAPartialPalette() throws IOException {
        String palette = ColorJson.palette();
        URI module = serve(200, palette.substring(0, palette.indexOf("},{") + 1) + "]");

        assertThatThrownBy(() -> verifier.verify("reactive-mget", module))
                .isInstanceOf(AnswerVerifier.WrongAnswerException.class)
                .hasMessageContaining("Module reactive-mget")
                .hasMessageContaining("expected " + palette.length() + " characters");
    }

    @Test
    void refusesAnErrorStatusEvenWithTheRightBody() throws IOException {
        URI module = serve(500, ColorJson.palette());

        assertThatThrownBy(() -> verifier.verify("cacheable-loop", module))
                .isInstanceOf(AnswerVerifier.WrongAnswerException.class)
                .hasMessageContaining("Module cacheable-loop")
                .hasMessageContaining("status 500");
    }

    @Test
    void refusesAModuleThatDoesNotAnswer() throws IOException {
        URI module = serve(200, ColorJson.palette());
        server.stop(0);
        server = null;

        assertThatThrownBy(() -> verifier.verify("in-memory", module))
                .isInstanceOf(AnswerVerifier.WrongAnswerException.class)
                .hasMessageContaining("Module in-memory");
    }

    private URI serve(int status, String body) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/colors", exchange -> {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }
}
