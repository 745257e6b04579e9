package dev.colorbench.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import redis.embedded.RedisServer;
import redis.embedded.core.RedisServerBuilder;

/**
 * A real Redis server, started from the binary in {@code com.github.codemonstur:embedded-redis}
 * on a loopback port, for tests and the benchmark on machines with nothing installed. It keeps
 * nothing on disk. Because the project started it, it may be stopped and started again.
 *
 * <p>{@value #SERVER} names another server executable to start instead, for example one that
 * {@code benchmark/fetch-servers.sh} fetched: a current Redis or Valkey, run the same way
 * ({@code docs/servers.md}).
 *
 * <p>The port is one the operating system reported free a moment before the server binds it;
 * another process may take it in between. {@link #start()} and {@link #startTls} then try
 * another port; a server {@link #notStarted} keeps its port, since its tests restart it there.
 *
 * <p>A server may have a replica ({@link #startReplicaOf}), which reaches it through a {@link DelayProxy}:
 * the proxy's added time is how far the replica lags. Replication keeps nothing on disk either: the
 * master streams its snapshot over the socket, and the replica loads it from there.
 */
public final class EmbeddedRedis implements AutoCloseable {

    /** The environment variable naming a Redis or Valkey server executable to start instead of the bundled one. */
    public static final String SERVER = "REDIS_SERVER";

    static final int ATTEMPTS = 5;

    /** How long a new replica may take to copy its master, on a loaded two-core machine. */
    private static final Duration IN_SYNC = Duration.ofSeconds(30);

    private static final Pattern LINK = Pattern.compile("^master_link_status:(\\w+)", Pattern.MULTILINE);

    /**
     * A channel of the kit's own: a {@code PUBLISH} on a master goes down its replication stream (changing no
     * data), so a replica that applied it shows that the stream flows.
     */
    private static final String IN_SYNC_CHANNEL = "colorbench-test-kit:in-sync";

    /** On a master, how far its replication stream has gone: every write it propagated, in bytes. */
    private static final Pattern MASTER_OFFSET = Pattern.compile("^master_repl_offset:(\\d+)", Pattern.MULTILINE);

    /** On a replica, how much of its master's stream it has applied. */
    private static final Pattern REPLICA_OFFSET = Pattern.compile("^slave_repl_offset:(\\d+)", Pattern.MULTILINE);

    private final int port;

    private final String password;

    private final Tls tls;

    private final Path executable;

    /** The master this server replicates, or {@code null} for a master. */
    private final EmbeddedRedis master;

    /** The path to {@link #master}, or {@code null} for a master. */
    private final DelayProxy path;

    private RedisServer server;

    private EmbeddedRedis(int port, String password, Tls tls, Path executable) {
        this(port, password, tls, executable, null, null);
    }

    private EmbeddedRedis(int port, String password, Tls tls, Path executable, EmbeddedRedis master, DelayProxy path) {
        this.port = port;
        this.password = password;
        this.tls = tls;
        this.executable = executable;
        this.master = master;
        this.path = path;
    }

    /** A PEM certificate and its PEM (PKCS#8) private key for a TLS-only server. */
    public record Tls(Path certificate, Path privateKey) {
    }

    /** Starts a server on a free port. */
    public static EmbeddedRedis start() {
        return startOnAFreePort(null, configuredExecutable());
    }

    /** Starts the Redis bundled with {@code embedded-redis}, whatever {@value #SERVER} says. */
    public static EmbeddedRedis startBundled() {
        return startOnAFreePort(null, null);
    }

    /** Starts the server executable {@code executable} (a Redis or Valkey {@code *-server}) on a free port. */
    public static EmbeddedRedis start(Path executable) {
        return startOnAFreePort(null, executable);
    }

    /** Starts a server that speaks only TLS, on a free port, without asking clients for certificates. */
    public static EmbeddedRedis startTls(Tls tls) {
        return startOnAFreePort(tls, configuredExecutable());
    }

    /**
     * A server on a port that was free just now, requiring {@code password}, not yet started: for
     * tests of what happens before Redis is there, and of it going away and coming back.
     */
    public static EmbeddedRedis notStarted(String password) {
        return new EmbeddedRedis(FreePorts.loopback(), password, null, configuredExecutable());
    }

    /**
     * Starts a replica of {@code master} on a free port, and returns once it holds everything {@code master}
     * held ({@link #awaitInSync}). The replica reaches its master only through {@code path}, a
     * {@link DelayProxy} to {@code master}'s port. The replication stream flows from master to replica, so a
     * write reaches the replica half the path's added round trip after the master took it: to make the
     * replica lag by {@code lag}, {@link DelayProxy#setAddedRoundTrip set the round trip} to twice it. The
     * replica is read-only, has the master's password, if any, and is the same server executable. It keeps
     * nothing on disk. Stopped and started again ({@link #startServer()}, then {@link #awaitInSync}), it copies
     * its master again from scratch; so it does after its master restarted empty.
     *
     * @throws IllegalArgumentException when {@code path} leads elsewhere, or {@code master} speaks only TLS
     */
    public static EmbeddedRedis startReplicaOf(EmbeddedRedis master, DelayProxy path) {
        if (master.tls != null) {
            throw new IllegalArgumentException("A replica of a TLS-only server is not supported: its link would need TLS too");
        }
        if (path.target().getPort() != master.port) {
            throw new IllegalArgumentException("The path leads to port " + path.target().getPort() + ", not to the master's " + master.port);
        }
        UncheckedIOException failure = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            EmbeddedRedis replica = new EmbeddedRedis(FreePorts.loopback(), master.password, null, master.executable, master, path);
            try {
                replica.startServer();
            }
            catch (UncheckedIOException ex) {
                failure = ex;
                continue;
            }
            try {
                replica.awaitInSync(IN_SYNC);
            }
            catch (RuntimeException ex) {
                replica.stop();
                throw ex;
            }
            return replica;
        }
        throw failure;
    }

    /** The executable {@value #SERVER} names, checked; {@code null} for the bundled Redis. */
    static Path configuredExecutable() {
        String configured = System.getenv(SERVER);
        if (configured == null || configured.isBlank()) {
            return null;
        }
        Path executable = Path.of(configured);
        if (!Files.isExecutable(executable)) {
            throw new IllegalStateException(SERVER + " names " + configured + ", which is not an executable file");
        }
        return executable;
    }

    /** A server builder of the executable {@code executable}, or of the bundled Redis when it is null. */
    static RedisServerBuilder builder(Path executable) {
        RedisServerBuilder builder = RedisServer.newRedisServer();
        return executable == null ? builder : builder.executableProvider(executable::toFile);
    }

    private static EmbeddedRedis startOnAFreePort(Tls tls, Path executable) {
        UncheckedIOException failure = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            EmbeddedRedis redis = new EmbeddedRedis(FreePorts.loopback(), null, tls, executable);
            try {
                redis.startServer();
                return redis;
            }
            catch (UncheckedIOException ex) {
                failure = ex;
            }
        }
        throw failure;
    }

    /** The port the server listens on, on 127.0.0.1. */
    public int port() {
        return port;
    }

    /** The URL to connect with, password included when the server requires one. */
    public String url() {
        String scheme = (tls == null) ? "redis://" : "rediss://";
        return scheme + ((password == null) ? "" : ":" + password + "@") + "127.0.0.1:" + port;
    }

    /** Starts the server, empty, on its port. */
    public void startServer() {
        try {
            server = builder(executable)
                    .port(tls == null ? port : 0)
                    .settingIf(tls != null, "tls-port " + port)
                    .settingIf(tls != null, "tls-cert-file " + (tls == null ? "" : tls.certificate()))
                    .settingIf(tls != null, "tls-key-file " + (tls == null ? "" : tls.privateKey()))
                    .settingIf(tls != null, "tls-auth-clients no")
                    .bind("127.0.0.1")
                    .setting("save \"\"")
                    .setting("appendonly no")
                    // a replica's copy goes over the socket at once, never through a file (Redis 7 waits 5 s by default)
                    .setting("repl-diskless-sync yes")
                    .setting("repl-diskless-sync-delay 0")
                    .settingIf(password != null, "requirepass " + password)
                    .settingIf(master != null, "replicaof 127.0.0.1 " + (path == null ? 0 : path.port()))
                    .settingIf(master != null && password != null, "masterauth " + password)
                    // the replica loads the copy from the socket, keeping its old data in memory meanwhile
                    .settingIf(master != null, "repl-diskless-load swapdb")
                    .onShutdownForceStop(true)
                    .build();
            server.start();
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Could not start embedded Redis on port " + port, ex);
        }
    }

    /**
     * Waits until this replica's link to its master is up and it has applied every write its master had
     * taken when the call began (its replication offset has reached the master's), or fails after
     * {@code timeout}. A read of the replica then sees each of those writes, and the master's stream flows:
     * each later write reaches the replica the path's delay after it. The master's own writes go on meanwhile,
     * as they would; the call does not wait for them.
     *
     * <p>The call publishes one empty message on the master, to the channel {@value #IN_SYNC_CHANNEL}, and waits
     * for the replica to apply it too. Right after a full copy, a master holds back its stream until the replica
     * acknowledges the copy; an acknowledgement sent before the master had finished is ignored, and the next
     * comes a second later. Offsets alone would call such a replica in sync while a write waits for a second.
     *
     * @throws IllegalStateException when this server is no replica, or is not in sync within {@code timeout}
     */
    public void awaitInSync(Duration timeout) {
        if (master == null) {
            throw new IllegalStateException("The server on port " + port + " is no replica");
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        ClientResources resources = DefaultClientResources.builder().ioThreadPoolSize(1).computationThreadPoolSize(1).build();
        RedisClient toMaster = client(resources, master.url());
        RedisClient toReplica = client(resources, url());
        try {
            long target;
            try (StatefulRedisConnection<String, String> connection = toMaster.connect()) {
                connection.sync().publish(IN_SYNC_CHANNEL, "");
                target = offset(connection.sync().info("replication"), MASTER_OFFSET);
            }
            String info = "";
            StatefulRedisConnection<String, String> connection = null;
            try {
                while (System.nanoTime() < deadline) {
                    try {
                        if (connection == null) {
                            connection = toReplica.connect();
                        }
                        info = connection.sync().info("replication");
                        if ("up".equals(find(LINK, info)) && offset(info, REPLICA_OFFSET) >= target) {
                            return;
                        }
                    }
                    catch (RuntimeException ex) {
                        // not up yet, or restarting: a new connection next time
                        info = ex.toString();
                        if (connection != null) {
                            connection.close();
                            connection = null;
                        }
                    }
                    sleep(5);
                }
            }
            finally {
                if (connection != null) {
                    connection.close();
                }
            }
            throw new IllegalStateException("The replica on port " + port + " did not reach its master's offset " + target
                    + " within " + timeout + ": " + info.strip().replace("\r\n", ", "));
        }
        finally {
            toReplica.shutdown(Duration.ZERO, Duration.ofSeconds(1));
            toMaster.shutdown(Duration.ZERO, Duration.ofSeconds(1));
            resources.shutdown(0, 1, TimeUnit.SECONDS);
        }
    }

    /** A client of the server at {@code url} whose commands must be answered within a second. */
    private static RedisClient client(ClientResources resources, String url) {
        RedisURI uri = RedisURI.create(url);
        uri.setTimeout(Duration.ofSeconds(1));
        return RedisClient.create(resources, uri);
    }

    private static long offset(String info, Pattern pattern) {
        String offset = find(pattern, info);
        return (offset == null) ? -1 : Long.parseLong(offset);
    }

    private static String find(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        return m.find() ? m.group(1) : null;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    /** Stops the server; {@link #startServer()} brings it back on the same port, empty. */
    public void stop() {
        try {
            if (server != null) {
                server.stop();
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    @Override
    public void close() {
        stop();
    }

}
