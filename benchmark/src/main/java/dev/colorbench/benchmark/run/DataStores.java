package dev.colorbench.benchmark.run;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Console;
import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.modules.RedisServer;
import dev.colorbench.benchmark.modules.Store;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.testkit.DelayProxy;
import dev.colorbench.testkit.EmbeddedPostgres;
import dev.colorbench.testkit.EmbeddedRedis;
import dev.colorbench.testkit.EmbeddedRedisCluster;
import dev.colorbench.testkit.RedisRoundTrip;

/**
 * The data stores the modules read: one Redis, embedded (a real {@code redis-server} the run starts
 * and stops) or the one named by {@code REDIS_URL}, which the run only reads from ({@code INFO})
 * and never flushes, scans or deletes. Redis runs for every run, also one of only the ceiling,
 * because the verification counts from Redis that such a module costs it nothing. When a condition
 * puts Redis further away, the modules reach it through a {@link DelayProxy}, and the round trip
 * that path adds is measured, not assumed. Rows on a Redis Cluster ({@link Target#redisCluster()}) read
 * one more store: a cluster of three masters the run starts (embedded, like the Redis), or the one
 * {@code REDIS_CLUSTER_NODES} names, which the run too only reads ({@code INFO} on each master). Rows on another
 * server ({@link Target#server()}) read it instead of the one Redis: a server executable the run starts on a free port, or a
 * server the user started, given by URL, which the run too only reads.
 */
public final class DataStores {

    /** The environment variable that points a module at a Redis Cluster (color-core's {@code ColorDefaults}). */
    static final String CLUSTER_NODES = "REDIS_CLUSTER_NODES";

    private final String redisUrl;

    private final String modulesRedisUrl;

    private final EmbeddedRedis embedded;

    private final DelayProxy proxy;

    private Double addedRoundTripMillis;

    private String databaseUrl;

    private EmbeddedPostgres embeddedDatabase;

    /** Each copy's database on the embedded PostgreSQL, by name ({@link #copyDatabaseUrl}). */
    private final Map<String, String> copyDatabases = new LinkedHashMap<>();

    private String clusterNodes;

    private boolean embeddedCluster;

    private final Map<RedisServer, String> otherServers = new LinkedHashMap<>();

    private DataStores(String redisUrl, String modulesRedisUrl, EmbeddedRedis embedded, DelayProxy proxy) {
        this.redisUrl = redisUrl;
        this.modulesRedisUrl = modulesRedisUrl;
        this.embedded = embedded;
        this.proxy = proxy;
    }

    /** Copies the embedded PostgreSQL's log, if the run started one, into {@code logs} as {@code postgres.log}. */
    void keepDatabaseLog(Path logs) {
        if (embeddedDatabase == null || !Files.exists(embeddedDatabase.logFile())) {
            return;
        }
        try {
            Files.createDirectories(logs);
            Files.copy(embeddedDatabase.logFile(), logs.resolve("postgres.log"), StandardCopyOption.REPLACE_EXISTING);
        }
        catch (IOException ex) {
            Console.info("could not keep the embedded PostgreSQL's log " + embeddedDatabase.logFile() + ": " + ex.getMessage());
        }
    }

    public static DataStores start(Condition condition, ChildProcesses processes) {
        DataStores stores = startRedis(condition, processes);
        if (condition.targets().stream().anyMatch(target -> target.module().store() == Store.POSTGRESQL)) {
            stores.startDatabase(condition.settings(), processes);
        }
        if (condition.targets().stream().anyMatch(Target::redisCluster)) {
            stores.startCluster(condition.settings(), processes);
        }
        condition.targets().stream().map(Target::server).filter(server -> server != null).distinct()
                .forEach(server -> stores.startServer(server, processes));
        return stores;
    }

    private void startServer(RedisServer server, ChildProcesses processes) {
        if (server.url() != null) {
            Console.info("using %s at %s".formatted(server.label(), redacted(server.url())));
            otherServers.put(server, server.url());
            return;
        }
        EmbeddedRedis started = processes.own(server.label(), EmbeddedRedis.start(server.executable()));
        Console.info("started %s on %s (%s)".formatted(server.label(), started.url(), server.executable()));
        otherServers.put(server, started.url());
    }

    /**
     * PostgreSQL for the database modules: an embedded one (a real server from zonky's binaries,
     * which the run starts and stops) or the one {@code DATABASE_URL} names, where the modules
     * touch only their own schema and the run only reads {@code pg_stat_statements}.
     */
    private void startDatabase(BenchmarkSettings settings, ChildProcesses processes) {
        if (settings.databaseUrl() != null) {
            Console.info("using the PostgreSQL in DATABASE_URL: " + redacted(settings.databaseUrl()));
            databaseUrl = settings.databaseUrl();
            return;
        }
        EmbeddedPostgres postgres = processes.own("embedded PostgreSQL", EmbeddedPostgres.start());
        Console.info("started embedded PostgreSQL on port " + postgres.port());
        databaseUrl = postgres.jdbcUrl();
        embeddedDatabase = postgres;
    }

    private void startCluster(BenchmarkSettings settings, ChildProcesses processes) {
        if (!settings.embeddedRedisCluster()) {
            Console.info("using the Redis Cluster in REDIS_CLUSTER_NODES: " + settings.redisClusterNodes());
            clusterNodes = settings.redisClusterNodes();
            return;
        }
        EmbeddedRedisCluster cluster = processes.own("embedded Redis Cluster", EmbeddedRedisCluster.start());
        Console.info("started an embedded Redis Cluster of %d masters on %s".formatted(EmbeddedRedisCluster.MASTERS, cluster.clusterNodes()));
        clusterNodes = cluster.clusterNodes();
        embeddedCluster = true;
    }

    /**
     * A {@code redis://} URL of each of the cluster's masters as given (every master must be listed), with the
     * credentials of {@code REDIS_URL} if it has any: how the run counts what each master executed.
     */
    public List<String> clusterMasterUrls() {
        if (clusterNodes == null) {
            throw new IllegalStateException("No row of this condition reads a Redis Cluster");
        }
        String userInfo = embeddedCluster ? null : URI.create(redisUrl).getRawUserInfo();
        String credentials = userInfo == null ? "" : userInfo + "@";
        return Arrays.stream(clusterNodes.split(",")).map(String::strip).filter(node -> !node.isEmpty())
                .map(node -> "redis://" + credentials + node).toList();
    }

    /**
     * The processes of the PostgreSQL the run started (its postmaster and everything under it), for what they spend on the CPU;
     * none for the one in {@code DATABASE_URL}, whose processes the run cannot see, or when no chosen module needs one.
     */
    public List<ProcessHandle> databaseProcesses() {
        return embeddedDatabase == null ? List.of() : embeddedDatabase.processes();
    }

    /** The Redis URLs whose servers a row's requests reach: the one Redis, or each master of the cluster for a row on it. */
    public List<String> redisUrlsOf(Target target) {
        return target.redisCluster() ? clusterMasterUrls() : List.of(target.server() != null ? otherServers.get(target.server()) : redisUrl);
    }

    /** The database modules' PostgreSQL (a JDBC URL with credentials), or null when no chosen module needs one. */
    public String databaseUrl() {
        return databaseUrl;
    }

    private static DataStores startRedis(Condition condition, ChildProcesses processes) {
        BenchmarkSettings settings = condition.settings();
        EmbeddedRedis embedded = null;
        String redisUrl;
        if (settings.embeddedRedis()) {
            embedded = processes.own("embedded Redis", EmbeddedRedis.start());
            Console.info("started embedded Redis on " + embedded.url());
            redisUrl = embedded.url();
        }
        else {
            Console.info("using the Redis in REDIS_URL: " + redacted(settings.redisUrl()));
            redisUrl = settings.redisUrl();
        }
        if (condition.redisRoundTrip() == null) {
            return new DataStores(redisUrl, redisUrl, embedded, null);
        }
        URI redis = URI.create(redisUrl);
        DelayProxy proxy = processes.own("delay proxy", DelayProxy.start(redis.getHost(), redis.getPort(), condition.redisRoundTrip()));
        String throughProxy = redisUrl.replace(redis.getHost() + ":" + redis.getPort(), "127.0.0.1:" + proxy.port());
        DataStores stores = new DataStores(redisUrl, throughProxy, embedded, proxy);
        stores.calibrateRedisRoundTrip(condition.redisRoundTrip().toNanos() / 1e6);
        return stores;
    }

    /** Off by no more than this share of the asked round trip, the proxy is calibrated. */
    private static final double CALIBRATED = 0.05;

    /** The most measurements of one distance (each about 1,300 PINGs through the path). */
    private static final int CALIBRATIONS = 4;

    /**
     * Sets the proxy so that the round trip it adds, as measured, is the one asked: what it adds beyond what it is told (its
     * own handling, and its sleeping thread waking late on a busy machine: a few tenths of a millisecond) is measured and
     * taken off what it is told, until within 5 % of the asked value, at most {@value #CALIBRATIONS} measurements.
     */
    public RedisRoundTrip.Measured calibrateRedisRoundTrip(double askedMillis) {
        double told = askedMillis;
        RedisRoundTrip.Measured measured = setRedisRoundTrip(Duration.ofNanos(Math.round(told * 1e6)));
        for (int attempt = 1; attempt < CALIBRATIONS && askedMillis > 0
                && Math.abs(measured.addedMillis() - askedMillis) > CALIBRATED * askedMillis; attempt++) {
            told = Math.max(0, told - (measured.addedMillis() - askedMillis));
            measured = setRedisRoundTrip(Duration.ofNanos(Math.round(told * 1e6)));
        }
        return measured;
    }

    /** Puts Redis this much further away from the modules from now on, and measures the round trip on their path ({@link RedisRoundTrip}). */
    public RedisRoundTrip.Measured setRedisRoundTrip(Duration added) {
        if (proxy == null) {
            throw new IllegalStateException("The modules reach Redis directly in this condition");
        }
        proxy.setAddedRoundTrip(added);
        RedisRoundTrip.Measured measured = RedisRoundTrip.measure(redisUrl, modulesRedisUrl);
        addedRoundTripMillis = measured.addedMillis();
        Console.info("Redis through a path adding %s ms per round trip: measured %.3f ms (direct %.3f ms)".formatted(
                Format.number(added.toNanos() / 1e6), measured.addedMillis(), measured.directMillis()));
        return measured;
    }

    /** Stops the embedded Redis (a fault the outage scenario puts under load); only a Redis the run started may be stopped. */
    public void stopRedis() {
        embeddedOnly().stop();
    }

    /** Starts the embedded Redis again, empty, on its port. */
    public void startRedis() {
        embeddedOnly().startServer();
    }

    private EmbeddedRedis embeddedOnly() {
        if (embedded == null) {
            throw new IllegalStateException("Only a Redis the run started itself may be stopped and started; REDIS_URL names another");
        }
        return embedded;
    }

    /** The Redis as the run reads it (commands, round trips): directly, whatever path the modules take. */
    public String redisUrl() {
        return redisUrl;
    }

    /** The round trip measured on the path the modules take, on top of the direct one; {@code null} for the direct path. */
    public Double addedRoundTripMillis() {
        return addedRoundTripMillis;
    }

    /**
     * What a module process needs in its environment to find the stores: {@code REDIS_URL} for every row (its
     * password, if any, applies on a cluster too), {@code REDIS_CLUSTER_NODES} for a row on the cluster only.
     */
    Map<String, String> environment(Target target) {
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("REDIS_URL", target.server() != null ? otherServers.get(target.server()) : modulesRedisUrl);
        String database = target.copy() ? copyDatabaseUrl(target) : databaseUrl;
        if (database != null) {
            environment.put("DATABASE_URL", database);
        }
        if (target.redisCluster()) {
            environment.put(CLUSTER_NODES, clusterNodes);
        }
        return environment;
    }

    /**
     * The database a copy of a database module reads: one of its own on the embedded PostgreSQL, created here. A copy's
     * Flyway migrates its own {@code colorbench.colors}, which the modules' migrations already hold. Two copies starting at
     * once would wait on each other's migration. Null for a Redis copy, and on a PostgreSQL of the user's (DATABASE_URL),
     * where the run creates no database.
     */
    public synchronized String copyDatabaseUrl(Target target) {
        if (embeddedDatabase == null || !target.copy() || target.module().store() != Store.POSTGRESQL) {
            return null;
        }
        return copyDatabases.computeIfAbsent(target.id().replaceAll("[^a-z0-9]", "_"),
                row -> embeddedDatabase.createDatabase("colorbench_copy_" + row));
    }

    /** For the report: which Redis (and PostgreSQL), without passwords. */
    public String describe() {
        String redis = (embedded != null ? "embedded, " : "REDIS_URL, ") + redacted(redisUrl);
        if (clusterNodes != null) {
            redis += "; Redis Cluster " + (embeddedCluster ? "embedded, %d masters, ".formatted(EmbeddedRedisCluster.MASTERS) : "REDIS_CLUSTER_NODES, ")
                    + clusterNodes;
        }
        for (Map.Entry<RedisServer, String> server : otherServers.entrySet()) {
            redis += "; " + server.getKey().label() + (server.getKey().url() == null ? " started from " + server.getKey().executable() + ", " : ", ")
                    + redacted(server.getValue());
        }
        return databaseUrl == null ? redis
                : redis + "; PostgreSQL " + (embeddedDatabase != null ? "embedded, " : "DATABASE_URL, ") + redacted(databaseUrl);
    }

    /** A Redis or JDBC URL without its password. */
    public static String redacted(String url) {
        return url.replaceAll("//[^@/]*@", "//***@").replaceAll("password=[^&]*", "password=***");
    }
}
