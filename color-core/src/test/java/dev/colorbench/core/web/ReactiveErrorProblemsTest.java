package dev.colorbench.core.web;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Mono;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import static dev.colorbench.core.web.ErrorProblems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/** The same problem bodies on WebFlux, for errors that arrive as a failed {@link Mono}. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "spring.main.web-application-type=reactive")
@ExtendWith(OutputCaptureExtension.class)
class ReactiveErrorProblemsTest {

    @LocalServerPort
    private int port;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(FailingController.class)
    static class FailingControllerApplication {
    }

    @RestController
    static class FailingController {

        @GetMapping("/fail/{how}")
        Mono<String> fail(@PathVariable String how) {
            return Mono.error(switch (how) {
                case "wrongtype" -> ErrorProblems.wrongType();
                case "unreachable" -> ErrorProblems.connectionFailure();
                default -> ErrorProblems.unexpected();
            });
        }
    }

    @Test
    void anUnexpectedExceptionIsA500ProblemAndLogged(CapturedOutput output) {
        assertProblem(ErrorProblems.send(port, "GET", "/fail/bug"), 500);

        assertThat(output.getAll()).contains("Unexpected error answering a request", "java.lang.IllegalStateException: Bug while talking to");
    }

    @Test
    void aWrongTypeReplyIsA500AndRedisAwayA503() {
        assertProblem(ErrorProblems.send(port, "GET", "/fail/wrongtype"), 500);
        assertProblem(ErrorProblems.send(port, "GET", "/fail/unreachable"), 503);
    }

    @Test
    void theFrameworksOwnErrorsKeepTheirStatus() {
        assertProblem(ErrorProblems.send(port, "POST", "/fail/bug"), 405);
    }
}
