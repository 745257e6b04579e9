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

    private RedisServer server;

    private EmbeddedRedis(int port) {
        this.port = port;
    }

    /** Starts a server on a free port. */
    public static EmbeddedRedis start() {
        EmbeddedRedis redis = new EmbeddedRedis(freePort());
        redis.startServer();
        return redis;
    }

    public int port() {
        return port;
    }

    public String url() {
        return "redis://127.0.0.1:" + port;
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

    private void startServer() {
        try {
            server = RedisServer.newRedisServer()
                    .port(port)
                    .bind("127.0.0.1")
                    .setting("save \"\"")
                    .setting("appendonly no")
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
