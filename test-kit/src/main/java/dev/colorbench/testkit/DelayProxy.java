package dev.colorbench.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP path with a round-trip time added to it: a loopback port whose every byte is forwarded to
 * {@code target} half the added time later, and every byte of the answer the other half later, in
 * order. Put between the modules and Redis, it makes Redis as far away as a server on another
 * host or in another zone, without touching any other traffic (the kernel's {@code tc netem}
 * would need root and the {@code sch_netem} module, which not every machine has).
 *
 * <p>Each direction of a connection has a reader, which stamps what arrives with the moment it is
 * due, and a writer, which waits for that moment ({@code parkNanos}, a few tens of microseconds
 * precise on Linux) and sends it on. The path itself costs a few tens of microseconds even with
 * nothing added: measure the round trip through it rather than assume it.
 *
 * <p>One connection can also be {@link #freeze frozen}: from then on nothing is forwarded on it, either
 * way, and both ends stay open, as when a NAT or a load balancer forgets an idle flow or the network
 * parts: neither end is told anything, and only a peer that expects an answer can notice.
 */
public final class DelayProxy implements AutoCloseable {

    private static final byte[] END = new byte[0];

    private final ServerSocket server;

    private final InetSocketAddress target;

    private volatile long halfDelayNanos;

    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    private final List<Link> links = new CopyOnWriteArrayList<>();

    private volatile boolean closed;

    private DelayProxy(InetSocketAddress target, Duration addedRoundTrip) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.target = target;
        this.halfDelayNanos = addedRoundTrip.toNanos() / 2;
        Thread acceptor = new Thread(this::accept, "delay-proxy " + port());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Listens on a free loopback port and forwards to {@code host:port}, adding {@code addedRoundTrip} to every round trip. */
    public static DelayProxy start(String host, int port, Duration addedRoundTrip) {
        try {
            return new DelayProxy(new InetSocketAddress(host, port), addedRoundTrip);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot open the delay proxy", ex);
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Where the proxy forwards to. */
    InetSocketAddress target() {
        return target;
    }

    /** Changes the added round trip from now on: what is already under way keeps the time it was given. */
    public void setAddedRoundTrip(Duration addedRoundTrip) {
        halfDelayNanos = addedRoundTrip.toNanos() / 2;
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket();
                try {
                    upstream.connect(target, 2000);
                }
                catch (IOException ex) {
                    // the target refused or is not there: so is the proxy, at once, not after the client's own time-out
                    closeQuietly(client);
                    closeQuietly(upstream);
                    continue;
                }
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(upstream);
                Link link = new Link(upstream.getLocalPort());
                links.add(link);
                forward(client, upstream, link);
                forward(upstream, client, link);
            }
            catch (IOException ex) {
                if (!closed) {
                    continue;
                }
                return;
            }
        }
    }

    /**
     * Stops forwarding, both ways, the connection the target sees as coming from {@code address}
     * ({@code host:port}, as Redis's {@code CLIENT LIST} gives it in {@code addr=}), and keeps it open
     * until either end closes it; what either end sends meanwhile is read and never delivered.
     *
     * @return whether such a connection was found
     */
    public boolean freeze(String address) {
        int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
        boolean found = false;
        for (Link link : links) {
            if (link.upstreamPort() == port && !link.ended) {
                link.frozen = true;
                found = true;
            }
        }
        return found;
    }

    /** One connection through the proxy: the port of its end towards the target, and whether it is frozen or over. */
    private static final class Link {

        private final int upstreamPort;

        private volatile boolean frozen;

        private volatile boolean ended;

        Link(int upstreamPort) {
            this.upstreamPort = upstreamPort;
        }

        int upstreamPort() {
            return upstreamPort;
        }
    }

    /** One direction: a reader stamping chunks with when they are due, a writer sending each when it is. */
    private void forward(Socket from, Socket to, Link link) {
        BlockingQueue<Chunk> due = new LinkedBlockingQueue<>();
        daemon("delay-proxy read", () -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    due.add(new Chunk(System.nanoTime() + halfDelayNanos, Arrays.copyOf(buffer, read)));
                }
            }
            catch (IOException ex) {
                // the connection ended
            }
            link.ended = true;
            links.remove(link);
            due.add(new Chunk(0, END));
        });
        daemon("delay-proxy write", () -> {
            try (OutputStream out = to.getOutputStream()) {
                while (true) {
                    Chunk chunk = due.take();
                    if (chunk.bytes() == END) {
                        return;
                    }
                    long wait;
                    while ((wait = chunk.dueNanos() - System.nanoTime()) > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    if (link.frozen) {
                        // silent until an end closes; then the whole connection goes, nothing delivered
                        while (!link.ended && !closed) {
                            LockSupport.parkNanos(1_000_000);
                        }
                        return;
                    }
                    out.write(chunk.bytes());
                    out.flush();
                }
            }
            catch (IOException ex) {
                // the connection ended
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            finally {
                closeQuietly(to);
                closeQuietly(from);
            }
        });
    }

    private record Chunk(long dueNanos, byte[] bytes) {
    }

    private static void daemon(String name, Runnable work) {
        Thread thread = new Thread(work, name);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        sockets.forEach(DelayProxy::closeQuietly);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        }
        catch (Exception ex) {
            // closing anyway
        }
    }
}
