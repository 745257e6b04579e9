package dev.colorbench.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
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

    private RedisServer server;

    private EmbeddedRedis(int port, String password) {
        this.port = port;
        this.password = password;
    }

    /** Starts a server on a free port. */
    public static EmbeddedRedis start() {
        EmbeddedRedis redis = new EmbeddedRedis(freePort(), null);
        redis.startServer();
        return redis;
    }

    /**
     * Reserves a free port for a server that requires {@code password}, without starting it:
     * for tests of what happens before Redis is there.
     */
    public static EmbeddedRedis notStarted(String password) {
        return new EmbeddedRedis(freePort(), password);
    }

    public int port() {
        return port;
    }

    /** The URL to connect with, password included when the server requires one. */
    public String url() {
        return (password == null) ? "redis://127.0.0.1:" + port : "redis://:" + password + "@127.0.0.1:" + port;
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
                    .port(port)
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
