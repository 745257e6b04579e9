package dev.colorbench.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.support.PropertiesLoaderUtils;
import org.springframework.util.ClassUtils;

/**
 * Adds the settings all modules share ({@code colorbench/defaults.yml}) behind every other
 * property source, so they live in one place and a module needs no {@code application.yml}; and
 * those of its store: {@code colorbench/redis-defaults.yml} with Redis on the classpath,
 * {@code colorbench/jdbc-defaults.yml} with Spring Boot's JDBC support (a module with a database).
 * {@code REDIS_CLUSTER_NODES} switches a Redis module to a Redis Cluster ({@link #addClusterNodes}).
 * A module's name and port come from its own pom, through the {@code build-info} the build writes
 * into its jar: the same description the benchmark and {@code /actuator/info} read.
 */
class ColorDefaults implements EnvironmentPostProcessor {

    private static final String REDIS_CLASS = "org.springframework.data.redis.connection.RedisConnectionFactory";

    /** Not {@code javax.sql.DataSource}, which every JDK has: Spring Boot's own DataSource support. */
    private static final String JDBC_CLASS = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration";

    /** The environment variable that switches a module to a Redis Cluster. */
    static final String CLUSTER_NODES = "REDIS_CLUSTER_NODES";

    private static final String BUILD_INFO = "META-INF/build-info.properties";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        addNameAndPortFromBuildInfo(environment);
        addLast(environment, "colorbench/defaults.yml");
        if (ClassUtils.isPresent(REDIS_CLASS, application.getClassLoader())) {
            addClusterNodes(environment);
            addLast(environment, "colorbench/redis-defaults.yml");
        }
        if (ClassUtils.isPresent(JDBC_CLASS, application.getClassLoader())) {
            addLast(environment, "colorbench/jdbc-defaults.yml");
        }
    }

    /**
     * {@code REDIS_CLUSTER_NODES=host:port,host:port,...} points a module at a Redis Cluster: it becomes
     * {@code spring.data.redis.cluster.nodes}, which Spring Boot prefers to {@code spring.data.redis.url}
     * when both are set (a password or user in {@code REDIS_URL} still applies to every node). Unset or
     * blank, nothing is added and the module talks to the one server of {@code REDIS_URL} as before. It
     * is added last, so {@code spring.data.redis.cluster.nodes} set any other way wins. Topology refresh
     * for the cluster is in {@code redis-defaults.yml}.
     */
    private static void addClusterNodes(ConfigurableEnvironment environment) {
        String nodes = environment.getProperty(CLUSTER_NODES);
        if (nodes != null && !nodes.isBlank()) {
            environment.getPropertySources().addLast(new MapPropertySource("colorbench redis cluster (" + CLUSTER_NODES + ")",
                    Map.of("spring.data.redis.cluster.nodes", nodes.strip())));
        }
    }

    private static void addNameAndPortFromBuildInfo(ConfigurableEnvironment environment) {
        ClassPathResource buildInfo = new ClassPathResource(BUILD_INFO);
        if (!buildInfo.exists()) {
            return;
        }
        try {
            Properties build = PropertiesLoaderUtils.loadProperties(buildInfo);
            environment.getPropertySources().addLast(new MapPropertySource("colorbench module (build-info)", Map.of(
                    "spring.application.name", build.getProperty("build.artifact"),
                    "server.port", build.getProperty("build.port"))));
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static void addLast(ConfigurableEnvironment environment, String location) {
        try {
            new YamlPropertySourceLoader().load(location, new ClassPathResource(location))
                    .forEach(environment.getPropertySources()::addLast);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
