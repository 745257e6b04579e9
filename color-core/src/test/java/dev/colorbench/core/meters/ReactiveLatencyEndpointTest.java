package dev.colorbench.core.meters;

import java.time.Duration;

import reactor.core.publisher.Mono;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The latency endpoint on Netty and WebFlux: the request is timed to its answer, not to the handler's return. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "spring.main.web-application-type=reactive")
class ReactiveLatencyEndpointTest extends LatencyEndpointContract {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(TimedController.class)
    static class TimedApplication {
    }

    @RestController
    static class TimedController {

        @GetMapping("/colors")
        Mono<ResponseEntity<String>> colors(@RequestParam long sleep, @RequestParam(defaultValue = "false") boolean fail) {
            return Mono.delay(Duration.ofMillis(sleep)).map(ignored -> ResponseEntity.status(fail ? HttpStatus.SERVICE_UNAVAILABLE : HttpStatus.OK).body("[]"));
        }

        @GetMapping("/colors/{name}")
        Mono<String> color(@PathVariable String name) {
            return Mono.just("{}");
        }
    }
}
