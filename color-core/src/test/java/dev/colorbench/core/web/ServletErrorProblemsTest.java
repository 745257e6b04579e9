package dev.colorbench.core.web;

import java.net.http.HttpResponse;
import java.util.List;

import dev.colorbench.core.palette.Color;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import static dev.colorbench.core.web.ErrorProblems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every error the core's controller answers on MVC is a problem body: an unexpected exception is
 * a 500 that says nothing of it (the log has it all), Redis or the database being away is a 503 titled
 * after the store, a {@code WRONGTYPE} reply or a missing table that reached the controller is a bug
 * (500), and the framework's own 4xx keep their status.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "spring.main.web-application-type=servlet")
@ExtendWith(OutputCaptureExtension.class)
class ServletErrorProblemsTest {

    @LocalServerPort
    private int port;

    /** A store that fails as the color asked for says. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class FailingStoreApplication {

        @Bean
        ColorStore failingStore() {
            return new ColorStore() {

                @Override
                public List<Color> findAll() {
                    throw ErrorProblems.unexpected();
                }

                @Override
                public List<Color> findByNames(List<String> names) {
                    throw switch (names.get(0)) {
                        case "red" -> ErrorProblems.wrongType();
                        case "blue" -> ErrorProblems.connectionFailure();
                        case "teal" -> ErrorProblems.timeout();
                        case "navy" -> ErrorProblems.databaseConnectionFailure();
                        case "olive" -> ErrorProblems.statementTimeout();
                        case "plum" -> ErrorProblems.missingTable();
                        default -> ErrorProblems.unexpected();
                    };
                }
            };
        }
    }

    @Test
    void anUnexpectedExceptionIsA500ProblemAndLoggedWithItsStackTrace(CapturedOutput output) {
        assertProblem(ErrorProblems.send(port, "GET", "/colors"), 500);

        assertThat(output.getAll()).contains("Unexpected error answering a request", "java.lang.IllegalStateException: Bug while talking to",
                "\tat dev.colorbench.core.web.ServletErrorProblemsTest");
    }

    @Test
    void aWrongTypeReplyIsBadDataNotAnOutageSoA500() {
        assertProblem(ErrorProblems.send(port, "GET", "/colors/red"), 500);
    }

    @Test
    void redisAwayOrSlowIsA503() {
        HttpResponse<String> away = ErrorProblems.send(port, "GET", "/colors/blue");

        assertProblem(away, 503);
        assertThat(away.body()).contains("\"title\":\"Redis unavailable\"");
        assertProblem(ErrorProblems.send(port, "GET", "/colors/teal"), 503);
    }

    @Test
    void theDatabaseAwayOrSlowIsA503TitledAfterIt() {
        for (String failing : new String[] { "/colors/navy", "/colors/olive" }) {
            HttpResponse<String> response = ErrorProblems.send(port, "GET", failing);

            assertProblem(response, 503);
            assertThat(response.body()).as(failing).contains("\"title\":\"Database unavailable\"");
        }
    }

    @Test
    void aMissingTableIsABugNotAnOutageSoA500() {
        assertProblem(ErrorProblems.send(port, "GET", "/colors/plum"), 500);
    }

    @Test
    void theFrameworksOwnErrorsKeepTheirStatus() {
        assertProblem(ErrorProblems.send(port, "GET", "/colors/nope"), 404);
        assertProblem(ErrorProblems.send(port, "GET", "/colors?names=r%20d"), 400);
        assertProblem(ErrorProblems.send(port, "POST", "/colors"), 405);
        assertProblem(ErrorProblems.send(port, "GET", "/nothing/here"), 404);
    }
}
