package dev.colorbench.benchmark;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

import dev.colorbench.benchmark.modules.ModuleCatalog;
import dev.colorbench.benchmark.modules.PatternModule;
import dev.colorbench.benchmark.modules.Store;
import dev.colorbench.testkit.EmbeddedRedis;
import dev.colorbench.testkit.RedisCommandStats;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Docker is not available on the build machines, so the compose files are checked against the
 * modules the build knows instead of being run: every module, its port, its data store (Redis or
 * PostgreSQL, as its pom says), its health; and what {@code docker-compose.cluster.yml} adds on top:
 * three cluster nodes, the one-shot service that joins them, and the cluster for every Redis module
 * that can use one.
 */
class DockerComposeTest {

    private static final Path REPOSITORY = Path.of("..");

    private static final String REDIS_IMAGE = "redis:6.2-alpine";

    private final List<PatternModule> modules = ModuleCatalog.read(REPOSITORY).modules();

    private final Map<String, Object> services = services("docker-compose.yml");

    private final Map<String, Object> clusterServices = services("docker-compose.cluster.yml");

    private static final List<String> CLUSTER_NODES = List.of("redis-node-1", "redis-node-2", "redis-node-3");

    private static final String CLUSTER_INIT = "redis-cluster-init";

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
            // 127.0.0.1 unless MODULES_BIND_ADDRESS names another address (a load generator on another machine)
            assertThat(strings(service.get("ports"))).as(module.id())
                    .containsExactly("${MODULES_BIND_ADDRESS:-127.0.0.1}:" + port + ":" + port);
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
    void theSingleServerFileKnowsNothingOfTheCluster() {
        for (PatternModule module : modules) {
            assertThat(map(map(services.get(module.id())).get("environment"))).as(module.id()).doesNotContainKey("REDIS_CLUSTER_NODES");
        }
    }

    /** Three masters: cluster-enabled, nothing on disk, the password (and masterauth) only when REDIS_PASSWORD is set. */
    @Test
    void theClusterHasThreeNodesWithClusterEnabledAHealthcheckAndLoopbackPortsOnly() {
        for (String node : CLUSTER_NODES) {
            Map<String, Object> service = map(clusterServices.get(node));
            assertThat(service).as(node + " in docker-compose.cluster.yml").isNotNull();

            assertThat(service.get("image")).as(node).isEqualTo(REDIS_IMAGE);
            String command = String.join(" ", strings(service.get("command")));
            assertThat(command).as(node).contains("redis-server --cluster-enabled yes --save '' --appendonly no",
                    "$${REDIS_PASSWORD:+--requirepass \"$$REDIS_PASSWORD\" --masterauth \"$$REDIS_PASSWORD\"}");
            assertThat(map(service.get("environment"))).as(node).containsEntry("REDIS_PASSWORD", "${REDIS_PASSWORD:-}");
            assertThat(map(service.get("healthcheck")).get("test").toString()).as(node).contains("ping");
            assertThat(strings(service.get("ports"))).as(node).isNotEmpty().allMatch(port -> port.startsWith("127.0.0.1:"));
        }
    }

    /** Once every node answers PING; idempotent (nothing to do when cluster_state is already ok); done only when it is ok. */
    @Test
    void theClusterIsCreatedOnceByAOneShotServiceAfterEveryNodeIsHealthy() {
        Map<String, Object> init = map(clusterServices.get(CLUSTER_INIT));
        assertThat(init).as(CLUSTER_INIT + " in docker-compose.cluster.yml").isNotNull();

        assertThat(init.get("image")).isEqualTo(REDIS_IMAGE);
        assertThat(init).doesNotContainKey("ports");
        Map<String, Object> dependsOn = map(init.get("depends_on"));
        assertThat(dependsOn.keySet()).containsExactlyInAnyOrderElementsOf(CLUSTER_NODES);
        for (String node : CLUSTER_NODES) {
            assertThat(map(dependsOn.get(node)).get("condition")).as(node).isEqualTo("service_healthy");
        }
        String script = String.join(" ", strings(init.get("command")));
        assertThat(script).contains("redis-node-1 redis-node-2 redis-node-3", "cluster_state:ok", "exit 0",
                "--cluster create $$addresses --cluster-replicas 0 --cluster-yes", "-a \"$$REDIS_PASSWORD\"");
        assertThat(script.indexOf("exit 0")).as("skips when the cluster is already ok, before creating it")
                .isLessThan(script.indexOf("--cluster create"));
        assertThat(script).as("every $ doubled: the shell's, not compose's")
                .doesNotContainPattern("(?<!\\$)\\$(?!\\$)");
    }

    /**
     * Every Redis module adds the cluster nodes and waits for the cluster; nothing else of its service
     * changes. The others stay as they are.
     */
    @Test
    void everyRedisModuleGetsTheClusterAndWaitsForIt() {
        List<String> onTheCluster = modules.stream()
                .filter(module -> module.store() == Store.REDIS)
                .map(PatternModule::id)
                .toList();
        assertThat(onTheCluster).isNotEmpty();
        assertThat(clusterServices.keySet()).containsExactlyInAnyOrderElementsOf(
                Stream.of(CLUSTER_NODES.stream(), Stream.of(CLUSTER_INIT), onTheCluster.stream()).flatMap(ids -> ids).toList());

        String nodes = String.join(",", CLUSTER_NODES.stream().map(node -> node + ":6379").toList());
        for (String id : onTheCluster) {
            Map<String, Object> service = map(clusterServices.get(id));
            assertThat(service.keySet()).as(id).containsExactlyInAnyOrder("environment", "depends_on");
            assertThat(map(service.get("environment"))).as(id).containsExactly(Map.entry("REDIS_CLUSTER_NODES", nodes));
            Map<String, Object> dependsOn = map(service.get("depends_on"));
            assertThat(dependsOn.keySet()).as(id).containsExactly(CLUSTER_INIT);
            assertThat(map(dependsOn.get(CLUSTER_INIT)).get("condition")).as(id).isEqualTo("service_completed_successfully");
            assertThat(services).as(id + " in docker-compose.yml").containsKey(id);
        }
    }

    @Test
    void oneDockerfileBuildsEveryModuleFromItsBuildArgument() throws IOException {
        String dockerfile = Files.readString(REPOSITORY.resolve("Dockerfile"));

        assertThat(dockerfile).contains("ARG MODULE", "-pl \"modules/${MODULE}\"");
        assertThat(Files.readString(REPOSITORY.resolve(".dockerignore"))).contains("target/");
    }

    /**
     * The containers' Redis is the embedded server's line, on which the published figures ran. It is the embedded server
     * this test starts, whatever server REDIS_URL names for the other tests.
     */
    @Test
    void theContainersRedisIsTheEmbeddedServersVersion() {
        String version;
        try (EmbeddedRedis server = EmbeddedRedis.startBundled(); RedisCommandStats embedded = RedisCommandStats.connect(server.url())) {
            version = embedded.serverVersion();
        }
        assertThat(REDIS_IMAGE).isEqualTo("redis:" + version.substring(0, version.indexOf('.', version.indexOf('.') + 1)) + "-alpine");
        assertThat(map(services.get("redis")).get("image")).isEqualTo(REDIS_IMAGE);
    }

    /** A container gets the JVM options the benchmark's full run gives every module, so that figures taken against it compare. */
    @Test
    void theContainersJvmOptionsAreTheBenchmarks() throws IOException {
        String options = String.join(" ", BenchmarkSettings.from(new Properties(), Map.of()).jvmArgs());

        assertThat(Files.readString(REPOSITORY.resolve("Dockerfile"))).contains("ENV JAVA_OPTS=\"" + options + "\"");
    }

    private static Map<String, Object> services(String file) {
        try (Reader reader = Files.newBufferedReader(REPOSITORY.resolve(file))) {
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
