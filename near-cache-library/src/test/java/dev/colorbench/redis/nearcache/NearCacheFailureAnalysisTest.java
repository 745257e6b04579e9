package dev.colorbench.redis.nearcache;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each setup the near cache refuses stops an application as Spring Boot reports a bad property: one
 * description, one action naming the setting, and no stack trace. A real SpringApplication, whose
 * output is read; nothing connects, as each is refused before any command.
 */
@ExtendWith(OutputCaptureExtension.class)
class NearCacheFailureAnalysisTest {

    @Test
    void readsFromReplicas(CapturedOutput output) {
        assertReported(output, "Lettuce's ReadFrom is ReadFromReplica", "spring.data.redis.lettuce.read-from", "spring.data.redis.lettuce.read-from=replica");
    }

    @Test
    void masterReplica(CapturedOutput output) {
        assertReported(output, "spring.data.redis.masterreplica.nodes sets up reads from replicas", "spring.data.redis.url",
                "spring.data.redis.masterreplica.nodes=127.0.0.1:1,127.0.0.1:2");
    }

    @Test
    void anotherClient(CapturedOutput output) {
        assertReported(output, "needs Lettuce", "spring.data.redis.client-type", "spring.data.redis.client-type=jedis");
    }

    private static void assertReported(CapturedOutput output, String description, String action, String... properties) {
        SpringApplication application = new SpringApplication(Application.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        String[] args = new String[properties.length + 3];
        args[0] = "--spring.main.banner-mode=off";
        args[1] = "--spring.data.redis.url=redis://127.0.0.1:1";
        args[2] = "--redis.near-cache.prefixes=items::";
        for (int i = 0; i < properties.length; i++) {
            args[i + 3] = "--" + properties[i];
        }
        assertThatThrownBy(() -> application.run(args)).hasRootCauseInstanceOf(NearCacheSetupException.class);

        String printed = output.getAll();
        assertThat(printed).contains("APPLICATION FAILED TO START");
        String reported = printed.substring(printed.indexOf("APPLICATION FAILED TO START"));
        assertThat(reported.substring(reported.indexOf("Description:"), reported.indexOf("Action:"))).contains(description);
        assertThat(reported.substring(reported.indexOf("Action:"))).contains(action);
        assertThat(printed).as("no stack trace").doesNotContain("\tat ").doesNotContain("Application run failed");
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({ DataRedisAutoConfiguration.class, NearCacheAutoConfiguration.class })
    static class Application {
    }
}
