package dev.colorbench.core.meters;

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

/** The latency endpoint on Tomcat and Spring MVC. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "spring.main.web-application-type=servlet")
class ServletLatencyEndpointTest extends LatencyEndpointContract {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(TimedController.class)
    static class TimedApplication {
    }

    @RestController
    static class TimedController {

        @GetMapping("/colors")
        ResponseEntity<String> colors(@RequestParam long sleep, @RequestParam(defaultValue = "false") boolean fail) throws InterruptedException {
            Thread.sleep(sleep);
            return ResponseEntity.status(fail ? HttpStatus.SERVICE_UNAVAILABLE : HttpStatus.OK).body("[]");
        }

        @GetMapping("/colors/{name}")
        String color(@PathVariable String name) {
            return "{}";
        }
    }
}
