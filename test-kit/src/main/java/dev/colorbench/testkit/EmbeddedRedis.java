package dev.colorbench.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

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
 */
public final class EmbeddedRedis implements AutoCloseable {

    /** The environment variable naming a Redis or Valkey server executable to start instead of the bundled one. */
    public static final String SERVER = "REDIS_SERVER";

    private static final int ATTEMPTS = 5;

    private final int port;

    private final String password;

    private final Tls tls;

    private final Path executable;

    private RedisServer server;

    private EmbeddedRedis(int port, String password, Tls tls, Path executable) {
        this.port = port;
        this.password = password;
        this.tls = tls;
        this.executable = executable;
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
                    .settingIf(password != null, "requirepass " + password)
                    .onShutdownForceStop(true)
                    .build();
            server.start();
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Could not start embedded Redis on port " + port, ex);
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
