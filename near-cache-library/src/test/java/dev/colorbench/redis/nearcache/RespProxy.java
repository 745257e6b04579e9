package dev.colorbench.redis.nearcache;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback TCP proxy to a Redis server that reads what the server sends as RESP3 frames, so that it can
 * drop the push messages ({@code >} frames, the invalidations of {@code CLIENT TRACKING}) and relay every
 * reply, as a proxy or a middlebox that does not know RESP3 pushes might. It can also send the
 * connections it accepts from now on to another server, leaving those already open where they are, as a
 * DNS name or a load balancer moved to a promoted master would.
 */
final class RespProxy implements AutoCloseable {

    private final ServerSocket server;

    private volatile InetSocketAddress target;

    private volatile boolean dropPushes;

    private final AtomicLong dropped = new AtomicLong();

    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    private volatile boolean closed;

    private RespProxy(InetSocketAddress target) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.target = target;
        Thread acceptor = new Thread(this::accept, "resp-proxy " + port());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    static RespProxy start(int targetPort) {
        try {
            return new RespProxy(new InetSocketAddress("127.0.0.1", targetPort));
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot open the proxy", ex);
        }
    }

    int port() {
        return server.getLocalPort();
    }

    /** From now on, push frames from the server are read and not delivered, on every connection; replies still are. */
    void dropPushes(boolean drop) {
        dropPushes = drop;
    }

    /** Push frames dropped so far. */
    long dropped() {
        return dropped.get();
    }

    /** Connections accepted from now on go to the server on {@code port}; those open stay where they are. */
    void redirect(int port) {
        target = new InetSocketAddress("127.0.0.1", port);
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
                    client.close();
                    upstream.close();
                    continue;
                }
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(upstream);
                daemon(() -> relayBytes(client, upstream));
                daemon(() -> relayFrames(upstream, client));
            }
            catch (IOException ex) {
                if (closed) {
                    return;
                }
            }
        }
    }

    /** The client's commands, byte for byte. */
    private void relayBytes(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int read;
            while ((read = in.read(buffer)) >= 0) {
                out.write(buffer, 0, read);
                out.flush();
            }
        }
        catch (IOException ex) {
            // the connection ended
        }
        finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    /** The server's frames, one whole frame at a time, push frames dropped while asked to. */
    private void relayFrames(Socket from, Socket to) {
        try (InputStream in = new BufferedInputStream(from.getInputStream()); OutputStream out = to.getOutputStream()) {
            while (true) {
                ByteArrayOutputStream frame = new ByteArrayOutputStream();
                int type = in.read();
                if (type < 0) {
                    return;
                }
                readFrame(type, in, frame);
                if (type == '>' && dropPushes) {
                    dropped.incrementAndGet();
                    continue;
                }
                frame.writeTo(out);
                if (in.available() == 0) {
                    out.flush();
                }
            }
        }
        catch (IOException ex) {
            // the connection ended
        }
        finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    /**
     * Copies one RESP3 frame whose type byte was read into {@code frame}: simple types end at their line, blob
     * types carry a length, aggregates a count of frames (twice that for maps and attributes, which precede the
     * frame they describe).
     */
    private static void readFrame(int type, InputStream in, ByteArrayOutputStream frame) throws IOException {
        frame.write(type);
        String line = readLine(in, frame);
        switch (type) {
            case '+', '-', ':', '_', ',', '#', '(' -> {
                // the line is the whole frame
            }
            case '$', '!', '=' -> {
                long length = Long.parseLong(line);
                if (length >= 0) {
                    copy(in, frame, length + 2);
                }
            }
            case '*', '~', '>', '%', '|' -> {
                long count = Long.parseLong(line);
                long elements = (type == '%' || type == '|') ? count * 2 : count;
                for (long i = 0; i < elements; i++) {
                    readFrame(next(in), in, frame);
                }
                if (type == '|') {
                    readFrame(next(in), in, frame);
                }
            }
            default -> throw new IOException("Not a RESP3 type: " + (char) type);
        }
    }

    private static int next(InputStream in) throws IOException {
        int read = in.read();
        if (read < 0) {
            throw new EOFException();
        }
        return read;
    }

    /** Reads up to and including CRLF into {@code frame}, and returns the line without it. */
    private static String readLine(InputStream in, ByteArrayOutputStream frame) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int previous = -1;
        while (true) {
            int read = next(in);
            frame.write(read);
            if (previous == '\r' && read == '\n') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.US_ASCII);
            }
            line.write(read);
            previous = read;
        }
    }

    private static void copy(InputStream in, ByteArrayOutputStream frame, long length) throws IOException {
        byte[] buffer = new byte[8192];
        long left = length;
        while (left > 0) {
            int read = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (read < 0) {
                throw new EOFException();
            }
            frame.write(buffer, 0, read);
            left -= read;
        }
    }

    private static void daemon(Runnable work) {
        Thread thread = new Thread(work, "resp-proxy relay");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        sockets.forEach(RespProxy::closeQuietly);
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
