package dev.colorbench.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * Loopback ports for the servers the tests and the benchmark start. A port is free when it is
 * handed out and nothing holds it afterwards, so another process may take it before the server
 * binds it: callers that can retry on a bind failure do ({@link EmbeddedRedis#start()},
 * {@link EmbeddedPostgres#start()}); a module that loses the race fails its start-up loudly.
 */
public final class FreePorts {

    private FreePorts() {
    }

    /** A port on the loopback address that nothing was listening on just now. */
    public static int loopback() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
