package dev.colorbench.benchmark.run;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

import com.sun.net.httpserver.HttpServer;
import dev.colorbench.core.palette.ColorJson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
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
    void asksAgainWhileTheModuleAnswers503AndAcceptsThePaletteWhenItComes() throws IOException {
        AtomicInteger requests = new AtomicInteger();
        URI module = serve(() -> requests.incrementAndGet() <= 2 ? 503 : 200, ColorJson.palette());

        assertThatCode(() -> verifier.verify("cacheable-async", module)).doesNotThrowAnyException();
        assertThat(requests).hasValue(3);
    }

    @Test
    void refusesAModuleWhoseStoreStaysUnavailable() throws IOException {
        AtomicInteger requests = new AtomicInteger();
        URI module = serve(() -> {
            requests.incrementAndGet();
            return 503;
        }, "{}");

        assertThatThrownBy(() -> verifier.verify("cacheable-async", module))
                .isInstanceOf(AnswerVerifier.WrongAnswerException.class)
                .hasMessageContaining("status 503");
        assertThat(requests).hasValue(5);
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
        return serve(() -> status, body);
    }

    private URI serve(IntSupplier status, String body) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/colors", exchange -> {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status.getAsInt(), bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }
}
