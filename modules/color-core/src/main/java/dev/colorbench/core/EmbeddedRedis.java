package dev.colorbench.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;

import redis.embedded.RedisServer;

/**
 * A real Redis server, started from the binary in {@code com.github.codemonstur:embedded-redis}
 * on a free loopback port, for tests and the benchmark on machines with nothing installed. It
 * keeps nothing on disk. Because the project started it, it may be stopped and restarted.
 */
public final class EmbeddedRedis implements AutoCloseable {

    private final int port;

    private final String password;

    private final Tls tls;

    private RedisServer server;

    private EmbeddedRedis(int port, String password, Tls tls) {
        this.port = port;
        this.password = password;
        this.tls = tls;
    }

    /** A PEM certificate and its PEM (PKCS#8) private key for a TLS-only server. */
    public record Tls(Path certificate, Path privateKey) {
    }

    /** Starts a server on a free port. */
    public static EmbeddedRedis start() {
        EmbeddedRedis redis = new EmbeddedRedis(freePort(), null, null);
        redis.startServer();
        return redis;
    }

    /** Starts a server that speaks only TLS, on a free port, without asking clients for certificates. */
    public static EmbeddedRedis startTls(Tls tls) {
        EmbeddedRedis redis = new EmbeddedRedis(freePort(), null, tls);
        redis.startServer();
        return redis;
    }

    /**
     * Reserves a free port for a server that requires {@code password}, without starting it:
     * for tests of what happens before Redis is there.
     */
    public static EmbeddedRedis notStarted(String password) {
        return new EmbeddedRedis(freePort(), password, null);
    }

    public int port() {
        return port;
    }

    /** The URL to connect with, password included when the server requires one. */
    public String url() {
        String scheme = (tls == null) ? "redis://" : "rediss://";
        return scheme + ((password == null) ? "" : ":" + password + "@") + "127.0.0.1:" + port;
    }

    public boolean isRunning() {
        return server != null && server.isActive();
    }

    /** Stops the server; {@link #restart()} brings it back on the same port, empty. */
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

    public void restart() {
        stop();
        startServer();
    }

    @Override
    public void close() {
        stop();
    }

    /** Starts the server, empty, on its port. */
    public void startServer() {
        try {
            server = RedisServer.newRedisServer()
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

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
