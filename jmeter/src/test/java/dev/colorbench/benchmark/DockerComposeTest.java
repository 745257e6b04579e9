package dev.colorbench.benchmark;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Docker is not available on the build machines, so the compose file is checked against the
 * benchmark's module table instead of being run: every module, its port, its Redis, its health.
 */
class DockerComposeTest {

    private static final Path REPOSITORY = Path.of("..");

    private final Map<String, Object> services = services();

    @Test
    void redisHasAHealthcheckAndIsPublishedOnLoopbackOnly() {
        Map<String, Object> redis = map(services.get("redis"));

        assertThat(map(redis.get("healthcheck")).get("test").toString()).contains("ping");
        assertThat(strings(redis.get("ports"))).allMatch(port -> port.startsWith("127.0.0.1:"));
    }

    @Test
    void everyModuleOfTheBenchmarkIsAServiceOnItsPortWithItsRedisAndAHealthcheck() {
        for (PatternModule module : PatternModule.values()) {
            Map<String, Object> service = map(services.get(module.id()));
            assertThat(service).as(module.id() + " in docker-compose.yml").isNotNull();

            Map<String, Object> build = map(service.get("build"));
            assertThat(build.get("context")).isEqualTo(".");
            assertThat(map(build.get("args")).get("MODULE")).as(module.id()).isEqualTo(module.id());

            int port = module.defaultPort();
            assertThat(strings(service.get("ports"))).as(module.id()).containsExactly("127.0.0.1:" + port + ":" + port);
            assertThat(map(service.get("environment")).get("REDIS_URL").toString()).as(module.id())
                    .startsWith("redis://").endsWith("redis:6379");
            assertThat(map(map(service.get("depends_on")).get("redis")).get("condition")).isEqualTo("service_healthy");
            assertThat(map(service.get("healthcheck")).get("test").toString()).as(module.id())
                    .contains("http://127.0.0.1:" + port + "/actuator/health");
        }
    }

    @Test
    void noOtherServiceAndEveryPortOnLoopback() {
        assertThat(services.keySet()).containsExactlyInAnyOrderElementsOf(
                java.util.stream.Stream.concat(java.util.stream.Stream.of("redis"),
                        java.util.Arrays.stream(PatternModule.values()).map(PatternModule::id)).toList());
    }

    @Test
    void oneDockerfileBuildsEveryModuleFromItsBuildArgument() throws IOException {
        String dockerfile = Files.readString(REPOSITORY.resolve("Dockerfile"));

        assertThat(dockerfile).contains("ARG MODULE", "-pl \"modules/${MODULE}\"", "-Xms256m -Xmx256m");
        assertThat(Files.readString(REPOSITORY.resolve(".dockerignore"))).contains("target/");
    }

    private static Map<String, Object> services() {
        try (Reader reader = Files.newBufferedReader(REPOSITORY.resolve("docker-compose.yml"))) {
            Map<String, Object> compose = new Yaml().load(reader);
            return map(compose.get("services"));
        }
        catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<String> strings(Object value) {
        return (List<String>) value;
    }
}
