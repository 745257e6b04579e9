package dev.colorbench.benchmark;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.colorbench.benchmark.modules.ModuleCatalog;
import dev.colorbench.benchmark.modules.PatternModule;
import dev.colorbench.benchmark.modules.Store;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Docker is not available on the build machines, so the compose file is checked against the
 * modules the build knows instead of being run: every module, its port, its data store (Redis or
 * PostgreSQL, as its pom says), its health.
 */
class DockerComposeTest {

    private static final Path REPOSITORY = Path.of("..");

    private final List<PatternModule> modules = ModuleCatalog.read(REPOSITORY).modules();

    private final Map<String, Object> services = services();

    @Test
    void redisHasAHealthcheckAndIsPublishedOnLoopbackOnly() {
        Map<String, Object> redis = map(services.get("redis"));

        assertThat(map(redis.get("healthcheck")).get("test").toString()).contains("ping");
        assertThat(strings(redis.get("ports"))).allMatch(port -> port.startsWith("127.0.0.1:"));
    }

    @Test
    void postgresHasAHealthcheckIsPublishedOnLoopbackOnlyAndLoadsTheStatementCounter() {
        Map<String, Object> postgres = map(services.get("postgres"));

        assertThat(map(postgres.get("healthcheck")).get("test").toString()).contains("pg_isready");
        assertThat(strings(postgres.get("ports"))).allMatch(port -> port.startsWith("127.0.0.1:"));
        assertThat(map(postgres.get("environment"))).containsEntry("POSTGRES_DB", "colorbench").containsEntry("POSTGRES_USER", "colorbench");
        assertThat(postgres.get("command").toString()).contains("shared_preload_libraries=pg_stat_statements");
    }

    @Test
    void everyModuleIsAServiceOnItsPortWithItsStoreAndAHealthcheck() {
        for (PatternModule module : modules) {
            Map<String, Object> service = map(services.get(module.id()));
            assertThat(service).as(module.id() + " in docker-compose.yml").isNotNull();

            Map<String, Object> build = map(service.get("build"));
            assertThat(build.get("context")).isEqualTo(".");
            assertThat(map(build.get("args")).get("MODULE")).as(module.id()).isEqualTo(module.id());

            int port = module.port();
            assertThat(strings(service.get("ports"))).as(module.id()).containsExactly("127.0.0.1:" + port + ":" + port);
            assertThat(map(service.get("healthcheck")).get("test").toString()).as(module.id())
                    .contains("http://127.0.0.1:" + port + "/actuator/health");
            Map<String, Object> environment = map(service.get("environment"));
            if (module.store() == Store.REDIS) {
                assertThat(environment.get("REDIS_URL").toString()).as(module.id())
                        .startsWith("redis://").endsWith("redis:6379");
                assertThat(map(map(service.get("depends_on")).get("redis")).get("condition")).isEqualTo("service_healthy");
                assertThat(environment).as(module.id()).doesNotContainKey("DATABASE_URL");
            }
            if (module.store() == Store.POSTGRESQL) {
                assertThat(environment.get("DATABASE_URL")).as(module.id()).isEqualTo("jdbc:postgresql://postgres:5432/colorbench");
                assertThat(environment).as(module.id()).containsKeys("SPRING_DATASOURCE_USERNAME", "SPRING_DATASOURCE_PASSWORD")
                        .doesNotContainKey("REDIS_URL");
                assertThat(map(map(service.get("depends_on")).get("postgres")).get("condition")).isEqualTo("service_healthy");
                assertThat(map(service.get("depends_on"))).as(module.id()).doesNotContainKey("redis");
            }
        }
    }

    /** Redis always (the benchmark counts from it that the ceiling costs nothing), PostgreSQL when a module reads it. */
    @Test
    void noOtherServiceAndEveryPortOnLoopback() {
        Stream<String> stores = modules.stream().anyMatch(module -> module.store() == Store.POSTGRESQL)
                ? Stream.of("redis", "postgres") : Stream.of("redis");
        assertThat(services.keySet()).containsExactlyInAnyOrderElementsOf(
                Stream.concat(stores, modules.stream().map(PatternModule::id)).toList());
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
